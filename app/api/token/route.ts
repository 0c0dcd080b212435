// POST /api/token: request a token now; token metadata (never the token) and the exchange record.
import { z } from "zod";
import { exchangeAuditFields, exchangeLogFields } from "@/lib/server/inquiry/operations";
import { requestTokenNow } from "@/lib/server/token/request";
import { readBodyText, parseJsonBody } from "@/lib/server/http/guards";
import { allowIn, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute(
    allowIn("token_request", "token_details", "raw_exchange"),
    async (context) => {
      // No input: the body may be empty or `{}`.
      const text = await readBodyText(context.request);
      if (text.trim() !== "") parseJsonBody(text, z.object({}).strict());
      const call = context.root.calls.ofSession(await context.session());
      const result = await context.audited(
        {
          event: "token_request",
          outcome: "success",
          operation: "token",
          environment: call.environment.name,
        },
        () => requestTokenNow(call),
        (answered) => exchangeAuditFields(answered.exchange),
      );
      context.annotate({ ...exchangeLogFields(result.exchange), token_issued: result.token !== null });
      return json(result);
    },
    { upstream: true },
  ),
});
