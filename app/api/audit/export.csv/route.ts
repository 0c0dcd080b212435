// GET /api/audit/export.csv?<filters> (admin): the filtered log as a CSV attachment, streamed page by page.
// The export is itself an audit row.
import { auditQueryFromUrl, describeFilters } from "@/lib/server/audit/http";
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/audit/export.csv"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const query = auditQueryFromUrl(new URL(context.request.url), false);
    const { auditLog } = await context.services();
    await context.audit({ event: "audit_export", outcome: "success", details: describeFilters(query) });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    return new Response(auditLog.csvStream(query), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="audit-${stamp}.csv"`,
      },
    });
  }),
});
