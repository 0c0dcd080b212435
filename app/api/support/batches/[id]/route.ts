// GET /api/support/batches/{id}: progress; DELETE: cancels. A batch is its owner's (others get 404, admins see all).
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";
import { cancelOwnedBatch, readBatch } from "@/lib/server/support/batches";
import { auditedBatchCaller } from "@/lib/server/support/batch-audit";
import { batchIdFrom } from "@/lib/server/support/route-helpers";
import { supportServices } from "@/lib/server/support/services";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("support_batch"), async (context) => {
  const id = batchIdFrom(context.request);
  const services = await supportServices();
  const { user } = await auditedBatchCaller(context, services, id);
  return json(await readBatch(services, id, { userId: user.id, roles: user.roles }));
});

export const DELETE = apiRoute(allowSomewhere("support_batch"), async (context) => {
  const id = batchIdFrom(context.request);
  const services = await supportServices();
  const { user, actor } = await auditedBatchCaller(context, services, id);
  return json(await cancelOwnedBatch(services, id, { userId: user.id, roles: user.roles }, actor));
});

const refuse = methodNotAllowed(["GET", "DELETE"]);
export { refuse as POST, refuse as PUT, refuse as PATCH };
export const OPTIONS = optionsHandler(["GET", "DELETE"]);
