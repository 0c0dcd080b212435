// POST /api/support/lookups: one Balance Inquiry for the support desk (never a Gift Balance Inquiry), answered in
// the support shape and masked for the caller's role; one audit row.
import { runInquiry } from "@/lib/server/inquiry/operations";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { supportCaller } from "@/lib/server/support/caller";
import { supportLookup } from "@/lib/server/support/lookup";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/support/lookups"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const input = await context.body();
    const call = context.root.calls.ofSession(await context.session());
    const environment = call.environment.name;
    const { actor } = supportCaller(
      context.config,
      context.request,
      await context.user(),
      "support_lookup",
      environment,
    );
    const { auditLog } = await context.services();
    const result = await supportLookup({
      send: (inquiry) => runInquiry(call, "balance_inquiry", inquiry),
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
  }),
});
