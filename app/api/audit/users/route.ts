// GET /api/audit/users?q=&limit= (admin): the user ids the audit log knows that contain q (any case), for the
// audit page's User filter. A read of the log like the others, so it is itself an audit row.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import type { AuditUserList } from "@/lib/shared/audit-contract";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/audit/users"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const query = context.query();
    const { auditLog } = await context.services();
    await context.audit({ event: "audit_read", outcome: "success", details: { users: query.q } });
    const body: AuditUserList = await auditLog.users(query);
    return json(body);
  }),
});
