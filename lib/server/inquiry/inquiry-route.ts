/**
 * The console route of an inquiry operation (`POST /api/inquiries/...`): its input schema and access are its
 * catalogue entry's (the operation itself, plus raw exchange), and the call is audited with
 * the card masked and its keyed hash, the upstream's status and X-Request-Id. One factory, so a new inquiry
 * operation's route file is two lines. The answer is the exchange record plus the session as it now stands.
 */
import "server-only";
import type { AuditEventName } from "@/lib/shared/audit-events";
import type * as contracts from "@/lib/shared/contracts";
import type { InquiryOperation } from "@/lib/shared/operations";
import {
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
import type { ROUTES } from "@/lib/server/openapi/catalogue";
import type { CallContexts } from "@/lib/server/token/call-context";
import { describeSession } from "@/lib/server/token/session-info";
import { exchangeAuditFields, exchangeLogFields, runInquiry } from "./operations";

/** What an inquiry route needs of the root it is bound to (lib/server/root/route). */
export interface InquiryRouteRoot extends RouteRoot {
  /** Each call's context, resolved once from the caller's session (lib/server/token/call-context). */
  calls: CallContexts;
  services(): Promise<RouteServices & { teamRuns: TeamRunWriter }>;
}

/** The catalogue entries of the inquiry routes. */
type InquiryRouteEntry = (typeof ROUTES)["/api/inquiries/gift-balance" | "/api/inquiries/balance"];

/** Each inquiry's audit event (docs/design.md §7 names them after the operation). */
export const INQUIRY_AUDIT_EVENTS = {
  gift_balance_inquiry: "gift_balance_inquiry",
  balance_inquiry: "balance_inquiry",
} as const satisfies Record<InquiryOperation, AuditEventName>;

export function inquiryRoute<R extends InquiryRouteRoot>(
  route: InquiryRouteEntry,
  operation: InquiryOperation,
  apiRoute: ApiRoute<R>,
): RouteExports {
  const POST = apiRoute(route.POST, async (context) => {
    const input = await context.body();
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
  });
  return defineRoute(route, { POST });
}
