// POST /api/inquiries/gift-balance: runs Gift Balance Inquiry; 200 with the exchange record when answered.
import { giftBalanceInquiryInputSchema } from "@/lib/api/contracts";
import { exchangeLogFields, runInquiry } from "@/lib/card-api/operations";
import { apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const POST = apiRoute(async (context) => {
  const input = await context.body(giftBalanceInquiryInputSchema);
  const record = await runInquiry(await context.session(), "gift_balance_inquiry", input);
  context.annotate(exchangeLogFields(record));
  return json(record);
});

const refuse = methodNotAllowed(["POST"]);
export { refuse as GET, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["POST"]);
