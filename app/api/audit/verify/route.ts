// GET /api/audit/verify[?from=checkpoint] (admin): walks the keyed chain against the signed checkpoints, from
// row 1 or from the last checkpoint an earlier verify found intact; {ok: true, rows, …} or where it first breaks,
// with what was checked. Audited.
import { verifyFromUrl } from "@/lib/server/audit/http";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/audit/verify"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const from = verifyFromUrl(new URL(context.request.url));
    const { auditLog } = await context.services();
    const result = await auditLog.verify(from);
    await context.audit({
      event: "audit_verify",
      outcome: result.ok ? "success" : "failure",
      reason: result.ok ? null : result.reason.slice(0, 1000),
      details: {
        rows: result.rows,
        checkpoints: result.checkpoints,
        ...(result.walked_from > 1 ? { walked_from: result.walked_from } : {}),
        ...(result.ok ? {} : { first_bad_row: result.first_bad_row }),
      },
    });
    return json(result);
  }),
});
