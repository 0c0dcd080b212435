// GET /api/audit/verify (admin): walks the keyed chain against the signed checkpoints; {ok: true, rows, …} or
// where it first breaks, with what was checked. Audited.
import { allowGlobal, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowGlobal("audit_read"), async (context) => {
    const { auditLog } = await context.services();
    const result = await auditLog.verify();
    await context.audit({
      event: "audit_verify",
      outcome: result.ok ? "success" : "failure",
      reason: result.ok ? null : result.reason.slice(0, 1000),
      details: {
        rows: result.rows,
        checkpoints: result.checkpoints,
        ...(result.ok ? {} : { first_bad_row: result.first_bad_row }),
      },
    });
    return json(result);
  }),
});
