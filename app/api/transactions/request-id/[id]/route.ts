// GET /api/transactions/request-id/{id}: Lookup Transaction by Request Id; 200 with the exchange record when
// answered (a 404 upstream included).
import { transactionLookupParamsSchema } from "@/lib/api/contracts";
import { exchangeLogFields, lookupTransaction } from "@/lib/card-api/operations";
import { ApiError } from "@/lib/errors";
import { zodFieldErrors } from "@/lib/http/guards";
import { apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/http/route";

export const dynamic = "force-dynamic";

function invalidId(fields: Record<string, string[]>): ApiError {
  return new ApiError("validation_failed", "The Request Id in the path is not valid.", { fields });
}

/** The `{id}` segment, validated; read from the URL so the handler keeps the one-argument route shape. */
function requestIdFrom(request: Request): string {
  const segment = new URL(request.url).pathname.split("/").pop() ?? "";
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    throw invalidId({ id: ["is not valid percent-encoding"] });
  }
  const parsed = transactionLookupParamsSchema.safeParse({ id });
  if (!parsed.success) throw invalidId(zodFieldErrors(parsed.error));
  return parsed.data.id;
}

export const GET = apiRoute(async (context) => {
  const record = await lookupTransaction(await context.session(), requestIdFrom(context.request));
  context.annotate(exchangeLogFields(record));
  return json(record);
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
