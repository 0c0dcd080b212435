// POST /api/requests: a free-form call of one card operation (docs/design.md §4); 200 with the exchange record when
// the upstream answered. Audited as the operation it called, with `details.free_form`.
import { freeFormOperationName } from "@/lib/shared/free-form";
import { INQUIRY_AUDIT_EVENTS } from "@/lib/server/inquiry/inquiry-route";
import { bodyCard, readFreeFormInput, runFreeForm } from "@/lib/server/inquiry/free-form";
import { auditedExchange, inquiryAnswer } from "@/lib/server/inquiry/exchange-route";
import { keepTeamRun } from "@/lib/server/inquiry/runs/record";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { apiRoute, defineRoute, json } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/requests"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const input = await readFreeFormInput(context.request);
    const user = await context.user();
    const call = context.root.calls.ofSession(await context.session());
    const operation = freeFormOperationName(input.operation);
    assertAllowed(user.roles, operation, call.environment.name);
    const card = bodyCard(input.body);
    const record = await auditedExchange(
      context,
      {
        event: operation === "transaction_lookup" ? "transaction_lookup" : INQUIRY_AUDIT_EVENTS[operation],
        outcome: "success",
        operation,
        environment: call.environment.name,
        ...(card ? { card } : {}),
        details: { free_form: true },
      },
      () => runFreeForm(call, input),
      { free_form: true },
    );
    const response = json(inquiryAnswer(context.config, call, user, record));
    if (operation !== "transaction_lookup") keepTeamRun(context, operation, card ?? "", record);
    return response;
  }),
});
