// POST /api/support/batches/{id}/retry: "Run the failed cards again": a new batch of the cards that had no usable
// answer, from the numbers the server kept sealed; 202 with the new batch's progress.
import type { EnvironmentName } from "@/lib/shared/contracts";
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { retryFailedCards } from "@/lib/server/support/batches";
import { batchCaller } from "@/lib/server/support/caller";
import { batchCredentials, batchIdFrom } from "@/lib/server/support/route-helpers";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/support/batches/[id]/retry"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const id = batchIdFrom(context.request);
    const services = await (await context.services()).support();
    const { actor, batch } = await batchCaller(
      context.config,
      context.request,
      await context.user(),
      services,
      id,
    );
    const call = context.root.calls.ofSession(await context.session());
    const environment = call.environment.name;
    // The new batch runs with this session's credentials, so only in the environment the first one ran in.
    if (environment !== batch.environment) {
      throw new ApiError(
        "environment_changed",
        `This batch ran in ${batch.environment}: switch to it first.`,
        {
          session_environment: environment,
          requested_environment: batch.environment as EnvironmentName,
        },
      );
    }
    const progress = await retryFailedCards(services, batch, {
      actor,
      environment,
      credentials: batchCredentials(call),
    });
    context.annotate({ environment, batch: progress.id, retry_of: id, cards: progress.total });
    return json(progress, 202);
  }),
});
