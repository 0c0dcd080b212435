// GET /api/support/batches/{id}/results?from=&limit=&show=: a page of masked results in input order (the page's
// table), optionally of one outcome only.
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";
import { MAX_RESULTS_PAGE, resultsPage } from "@/lib/server/support/batches";
import { batchCaller } from "@/lib/server/support/caller";
import { batchIdFrom, resultsPageParams } from "@/lib/server/support/route-helpers";
import { supportServices } from "@/lib/server/support/services";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("support_batch"), async (context) => {
  const id = batchIdFrom(context.request);
  const { from, limit, show } = resultsPageParams(context.request, MAX_RESULTS_PAGE);
  const services = await supportServices();
  const { batch } = await batchCaller(context.request, await context.user(), services, id);
  return json(await resultsPage(services, batch, from, limit, show));
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
