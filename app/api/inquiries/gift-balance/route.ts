// POST /api/inquiries/gift-balance: runs Gift Balance Inquiry; 200 with the exchange record when answered. Audited with the card
// masked and its keyed hash, the upstream's status and X-Request-Id.
import { giftBalanceInquiryInputSchema } from "@/lib/shared/contracts";
import { exchangeAuditFields, exchangeLogFields, runInquiry } from "@/lib/server/card-api/operations";
import { allowIn, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const POST = apiRoute(
  allowIn("gift_balance_inquiry", "raw_exchange"),
  async (context) => {
    const input = await context.body(giftBalanceInquiryInputSchema);
    const session = await context.session();
    const record = await context.audited(
      {
        event: "gift_balance_inquiry",
        outcome: "success",
        operation: "gift_balance_inquiry",
        environment: await context.environment(),
        card: input.card_number,
      },
      () => runInquiry(session, "gift_balance_inquiry", input),
      exchangeAuditFields,
    );
    context.annotate(exchangeLogFields(record));
    return json(record);
  },
  { upstream: true },
);

const refuse = methodNotAllowed(["POST"]);
export { refuse as GET, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["POST"]);
