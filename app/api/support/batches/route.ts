// GET /api/support/batches: the caller's batches (everyone's for an admin), newest first, with progress.
// POST /api/support/batches: starts a support batch from `{cards, reason?}`, `{csv, reason?}` or a `text/csv`
// upload (`?reason=`); 202 with its progress. The cards run on the server (lib/server/support/batch-runner).
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { listBatches, startBatch } from "@/lib/server/support/batches";
import { supportCaller } from "@/lib/server/support/caller";
import { batchCredentials, readBatchInput } from "@/lib/server/support/route-helpers";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/support/batches"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const user = await context.user();
    return json(
      await listBatches(await (await context.services()).support(), { userId: user.id, roles: user.roles }),
    );
  }),
  POST: apiRoute(route.POST, async (context) => {
    const call = context.root.calls.ofSession(await context.session());
    const environment = call.environment.name;
    const { actor } = supportCaller(
      context.config,
      context.request,
      await context.user(),
      "support_batch",
      environment,
    );
    const input = await readBatchInput(context.request, context.config);
    const progress = await startBatch(await (await context.services()).support(), {
      input,
      actor,
      environment,
      credentials: batchCredentials(call),
    });
    context.annotate({ environment, batch: progress.id, cards: progress.total });
    return json(progress, 202);
  }),
});
