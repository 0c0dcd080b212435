// GET /api/support/batches/{id}: progress; DELETE: cancels. A batch is its owner's (others get 404, admins see all).
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { cancelOwnedBatch, readBatch } from "@/lib/server/support/batches";
import { auditedBatchCaller } from "@/lib/server/support/batch-audit";
import { batchIdFrom } from "@/lib/server/support/route-helpers";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/support/batches/[id]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = batchIdFrom(context.request);
    const services = await (await context.services()).support();
    const { user } = await auditedBatchCaller(context, services, id);
    return json(await readBatch(services, id, { userId: user.id, roles: user.roles }));
  }),
  DELETE: apiRoute(route.DELETE, async (context) => {
    const id = batchIdFrom(context.request);
    const services = await (await context.services()).support();
    const { user, actor } = await auditedBatchCaller(context, services, id);
    return json(await cancelOwnedBatch(services, id, { userId: user.id, roles: user.roles }, actor));
  }),
});
