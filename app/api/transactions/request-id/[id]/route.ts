// GET /api/transactions/request-id/{id}: Lookup Transaction by Request Id; 200 with the exchange record when
// answered (a 404 upstream included).
import { transactionLookupParamsSchema } from "@/lib/api/contracts";
import { exchangeLogFields, lookupTransaction } from "@/lib/card-api/operations";
import { validateInput, validationError } from "@/lib/http/guards";
import { apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The `{id}` segment, decoded; read from the URL so the handler keeps the one-argument route shape. */
function requestIdFrom(request: Request): string {
  const segment = new URL(request.url).pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    throw validationError({ id: ["is not valid percent-encoding"] });
  }
}

export const GET = apiRoute(async (context) => {
  const { id } = validateInput({ id: requestIdFrom(context.request) }, transactionLookupParamsSchema);
  const record = await lookupTransaction(await context.session(), id);
  context.annotate(exchangeLogFields(record));
  return json(record);
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
