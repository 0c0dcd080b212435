/**
 * The console route of an inquiry operation (`POST /api/inquiries/...`): its input schema is the one the
 * operation registry names, its access the operation itself (plus raw exchange), and the call is audited with
 * the card masked and its keyed hash, the upstream's status and X-Request-Id. One factory, so a new inquiry
 * operation's route file is two lines. The answer is the exchange record plus the session as it now stands.
 */
import "server-only";
import type { AuditEventName } from "@/lib/shared/audit-events";
import * as contracts from "@/lib/shared/contracts";
import { OPERATION_SPECS, type InquiryOperation } from "@/lib/shared/operations";
import {
  allowIn,
  defineRoute,
  json,
  type ApiRoute,
  type RouteExports,
  type RouteRoot,
  type RouteServices,
} from "@/lib/server/http/route";
import { can } from "@/lib/server/identity/roles";
import { keepTeamRun } from "@/lib/server/inquiry/runs/record";
import type { TeamRunWriter } from "@/lib/server/inquiry/runs/writer";
import type { CallContexts } from "@/lib/server/token/call-context";
import { describeSession } from "@/lib/server/token/session-info";
import { exchangeAuditFields, exchangeLogFields, runInquiry } from "./operations";

/** What an inquiry route needs of the root it is bound to (lib/server/root/route). */
export interface InquiryRouteRoot extends RouteRoot {
  /** Each call's context, resolved once from the caller's session (lib/server/token/call-context). */
  calls: CallContexts;
  services(): Promise<RouteServices & { teamRuns: TeamRunWriter }>;
}

const INPUT_SCHEMAS = {
  gift_balance_inquiry: contracts[OPERATION_SPECS.gift_balance_inquiry.inputSchema],
  balance_inquiry: contracts[OPERATION_SPECS.balance_inquiry.inputSchema],
} satisfies Record<InquiryOperation, unknown>;

/** Each inquiry's audit event (DESIGN.md §7 names them after the operation). */
export const INQUIRY_AUDIT_EVENTS = {
  gift_balance_inquiry: "gift_balance_inquiry",
  balance_inquiry: "balance_inquiry",
} as const satisfies Record<InquiryOperation, AuditEventName>;

export function inquiryRoute<R extends InquiryRouteRoot>(
  operation: InquiryOperation,
  apiRoute: ApiRoute<R>,
): RouteExports {
  const POST = apiRoute(
    allowIn(operation, "raw_exchange"),
    async (context) => {
      const input = await context.body(INPUT_SCHEMAS[operation]);
      const user = await context.user();
      const session = await context.session();
      const call = context.root.calls.ofSession(session);
      const record = await context.audited(
        {
          event: INQUIRY_AUDIT_EVENTS[operation],
          outcome: "success",
          operation,
          environment: call.environment.name,
          card: input.card_number,
        },
        () => runInquiry(call, operation, input),
        exchangeAuditFields,
      );
      context.annotate(exchangeLogFields(record));
      const answer: contracts.InquiryAnswer = {
        ...record,
        session: describeSession(context.config, call, (where) => can(user.roles, "token_details", where)),
      };
      const response = json(answer);
      keepTeamRun(context, operation, input.card_number, record);
      return response;
    },
    { upstream: true },
  );
  return defineRoute({ POST });
}
