// GET /api/audit?user=&event=&card=&from=&to=&cursor=&limit= (admin): one page of the audit log, newest first.
// The read is itself an audit row.
import { auditQueryFromUrl, auditRowJson, describeFilters } from "@/lib/server/audit/http";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/audit"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const query = auditQueryFromUrl(new URL(context.request.url), true);
    const { auditLog } = await context.services();
    await context.audit({ event: "audit_read", outcome: "success", details: describeFilters(query) });
    const page = await auditLog.query(query);
    return json({ rows: page.rows.map(auditRowJson), next_cursor: page.nextCursor });
  }),
});
