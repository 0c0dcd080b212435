// GET /api/transactions/request-id/{id}: Lookup Transaction by Request Id; 200 with the exchange record when
// answered (a 404 upstream included). A caller who may not see raw exchanges (support) gets the summary instead.
import type { z } from "zod";
import { transactionLookupParamsSchema } from "@/lib/shared/contracts";
import { exchangeAuditFields, exchangeLogFields } from "@/lib/server/inquiry/operations";
import { lookupTransaction } from "@/lib/server/lookup/transaction";
import { can } from "@/lib/server/identity/roles";
import { ApiError } from "@/lib/server/util/errors";
import { zodFieldErrors } from "@/lib/server/http/guards";
import { allowIn, apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { supportTransactionLookup } from "@/lib/server/support/transaction-lookup";

export const dynamic = "force-dynamic";

function invalidId(fields: Record<string, string[]>): ApiError {
  return new ApiError("validation_failed", "The Request Id or environment of this lookup is not valid.", {
    fields,
  });
}

/**
 * The `{id}` segment and the optional `?environment=`, validated; read from the URL so the handler keeps the
 * one-argument route shape.
 */
function lookupParams(request: Request): z.output<typeof transactionLookupParamsSchema> {
  const url = new URL(request.url);
  const segment = url.pathname.split("/").pop() ?? "";
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    throw invalidId({ id: ["is not valid percent-encoding"] });
  }
  const environment = url.searchParams.get("environment") ?? undefined;
  const parsed = transactionLookupParamsSchema.safeParse({ id, environment });
  if (!parsed.success) throw invalidId(zodFieldErrors(parsed.error));
  return parsed.data;
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(
    allowIn("transaction_lookup"),
    async (context) => {
      const { id, environment } = lookupParams(context.request);
      const call = context.root.calls.ofSession(await context.session());
      const sessionEnvironment = call.environment.name;
      const record = await context.audited(
        {
          event: "transaction_lookup",
          outcome: "success",
          operation: "transaction_lookup",
          environment: sessionEnvironment,
          requestId: id,
        },
        () => lookupTransaction(call, id, environment),
        exchangeAuditFields,
      );
      context.annotate(exchangeLogFields(record));
      const { roles } = await context.user();
      return json(can(roles, "raw_exchange", sessionEnvironment) ? record : supportTransactionLookup(record));
    },
    { upstream: true },
  ),
});
