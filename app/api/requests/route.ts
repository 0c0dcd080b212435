// POST /api/requests: a free-form call of one card operation (DESIGN.md §4); 200 with the exchange record when
// the upstream answered. Audited as the operation it called, with `details.free_form`.
import type { InquiryAnswer } from "@/lib/shared/contracts";
import { freeFormOperationName } from "@/lib/shared/free-form";
import { INQUIRY_AUDIT_EVENTS } from "@/lib/server/inquiry/inquiry-route";
import { sessionCall } from "@/lib/server/inquiry/deps";
import { bodyCard, readFreeFormInput, runFreeForm } from "@/lib/server/inquiry/free-form";
import { describeSession, exchangeAuditFields, exchangeLogFields } from "@/lib/server/inquiry/operations";
import { keepTeamRun } from "@/lib/server/inquiry/runs/record";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { can } from "@/lib/server/identity/roles";
import { allowIn, apiRoute, defineRoute, json } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute(
    allowIn("raw_exchange"),
    async (context) => {
      const input = await readFreeFormInput(context.request);
      const user = await context.user();
      const { deps, source } = sessionCall(context.root.inquiry, await context.session());
      const operation = freeFormOperationName(input.operation);
      assertAllowed(user.roles, operation, source.environment.name);
      const card = bodyCard(input.body);
      const record = await context.audited(
        {
          event: operation === "transaction_lookup" ? "transaction_lookup" : INQUIRY_AUDIT_EVENTS[operation],
          outcome: "success",
          operation,
          environment: source.environment.name,
          ...(card ? { card } : {}),
          details: { free_form: true },
        },
        () => runFreeForm(deps, source, input),
        exchangeAuditFields,
      );
      context.annotate({ ...exchangeLogFields(record), free_form: true });
      const answer: InquiryAnswer = {
        ...record,
        session: describeSession(deps, source, (where) => can(user.roles, "token_details", where)),
      };
      const response = json(answer);
      if (operation !== "transaction_lookup") keepTeamRun(context, operation, card ?? "", record);
      return response;
    },
    { upstream: true },
  ),
});
