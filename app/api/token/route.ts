// POST /api/token: request a token now; token metadata (never the token) and the exchange record.
import { exchangeAuditFields, exchangeLogFields } from "@/lib/server/inquiry/operations";
import { requestTokenNow } from "@/lib/server/token/request";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/token"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    // No input: the body may be empty or `{}`.
    await context.body();
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
  }),
});
