// POST /api/support/lookups: one Balance Inquiry for the support desk (never a Gift Balance Inquiry), answered in
// the support shape and masked for the caller's role; one audit row.
import { sessionCall } from "@/lib/server/inquiry/deps";
import { runInquiry } from "@/lib/server/inquiry/operations";
import { allowIn, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";
import { supportCaller } from "@/lib/server/support/caller";
import { supportLookupInputSchema } from "@/lib/shared/support-contract";
import { supportLookup } from "@/lib/server/support/lookup";
import { supportServices } from "@/lib/server/support/services";

export const dynamic = "force-dynamic";

export const POST = apiRoute(
  allowIn("support_lookup"),
  async (context) => {
    const input = await context.body(supportLookupInputSchema);
    const session = await context.session();
    const { deps, source } = sessionCall(session, context.config);
    const environment = source.environment.name;
    const { actor } = supportCaller(context.request, await context.user(), "support_lookup", environment);
    const { auditLog } = await supportServices();
    const result = await supportLookup({
      send: (inquiry) => runInquiry(deps, source, "balance_inquiry", inquiry),
      cardNumber: input.card_number,
      environment,
      reason: input.reason,
      actor,
      auditLog,
    });
    context.annotate({
      environment,
      support_outcome: result.outcome,
      upstream_status: result.upstream_status,
    });
    return json(result);
  },
  { upstream: true },
);

const refuse = methodNotAllowed(["POST"]);
export { refuse as GET, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["POST"]);
