// GET /api/audit/users?q=&limit= (admin): the user ids the audit log knows that contain q (any case), for the
// audit page's User filter. A read of the log like the others, so it is itself an audit row.
import { auditUsersQuerySchema } from "@/lib/server/audit";
import { validateInput } from "@/lib/server/util/validation";
import { allowGlobal, apiRoute, json, defineRoute } from "@/lib/server/root/route";
import type { AuditUserList } from "@/lib/shared/audit-contract";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowGlobal("audit_read"), async (context) => {
    const query = validateInput(
      Object.fromEntries(new URL(context.request.url).searchParams),
      auditUsersQuerySchema,
    );
    const { auditLog } = await context.services();
    await context.audit({ event: "audit_read", outcome: "success", details: { users: query.q } });
    const body: AuditUserList = await auditLog.users(query);
    return json(body);
  }),
});
