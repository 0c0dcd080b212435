// GET /api/support/batches: the caller's batches (everyone's for an admin), newest first, with progress.
// POST /api/support/batches: starts a support batch from `{cards, reason?}`, `{csv, reason?}` or a `text/csv`
// upload (`?reason=`); 202 with its progress. The cards run on the server (lib/server/support/batch-runner).
import {
  allowIn,
  allowSomewhere,
  apiRoute,
  json,
  methodNotAllowed,
  optionsHandler,
} from "@/lib/server/http/route";
import { listBatches, startBatch } from "@/lib/server/support/batches";
import { supportCaller } from "@/lib/server/support/caller";
import { supportBatchInputSchema } from "@/lib/shared/support-contract";
import {
  acceptingCsv,
  batchCredentials,
  maxBatchBodyBytes,
  readLargeJsonBody,
  sessionEnvironment,
} from "@/lib/server/support/route-helpers";
import { supportServices } from "@/lib/server/support/services";

export const dynamic = "force-dynamic";

export const POST = acceptingCsv(
  apiRoute(allowIn("support_batch"), async (context) => {
    const session = await context.session();
    const environment = sessionEnvironment(session);
    const { actor } = supportCaller(context.request, await context.user(), "support_batch", environment);
    const input = await readLargeJsonBody(context.request, supportBatchInputSchema, maxBatchBodyBytes() * 2);
    const progress = await startBatch(await supportServices(), {
      input,
      actor,
      environment,
      credentials: batchCredentials(session),
    });
    context.annotate({ environment, batch: progress.id, cards: progress.total });
    return json(progress, 202);
  }),
);

export const GET = apiRoute(allowSomewhere("support_batch"), async (context) => {
  const user = await context.user();
  return json(await listBatches(await supportServices(), { userId: user.id, roles: user.roles }));
});

const refuse = methodNotAllowed(["GET", "POST"]);
export { refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET", "POST"]);
