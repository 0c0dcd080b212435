// GET /api/transactions/request-id/{id}: Lookup Transaction by Request Id; 200 with the exchange record when
// answered (a 404 upstream included). A caller who may not see raw exchanges (support) gets the summary instead.
import { auditedExchange } from "@/lib/server/inquiry/exchange-route";
import { lookupTransaction } from "@/lib/server/lookup/transaction";
import { can } from "@/lib/server/identity/roles";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { supportTransactionLookup } from "@/lib/server/support/transaction-lookup";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/transactions/request-id/[id]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const { id } = context.params();
    const { environment } = context.query();
    const call = context.root.calls.ofSession(await context.session());
    const sessionEnvironment = call.environment.name;
    const record = await auditedExchange(
      context,
      {
        event: "transaction_lookup",
        outcome: "success",
        operation: "transaction_lookup",
        environment: sessionEnvironment,
        requestId: id,
      },
      () => lookupTransaction(call, id, environment),
    );
    const { roles } = await context.user();
    return json(can(roles, "raw_exchange", sessionEnvironment) ? record : supportTransactionLookup(record));
  }),
});
