/**
 * The console route of an inquiry operation (`POST /api/inquiries/...`): its input schema is the one the
 * operation registry names, its access the operation itself (plus raw exchange), and the call is audited with
 * the card masked and its keyed hash, the upstream's status and X-Request-Id. One factory, so a new inquiry
 * operation's route file is two lines.
 */
import "server-only";
import type { AuditEventName } from "@/lib/shared/audit-events";
import * as contracts from "@/lib/shared/contracts";
import { OPERATION_SPECS, type InquiryOperation } from "@/lib/shared/operations";
import type { Database } from "@/lib/server/database";
import {
  allowIn,
  defineRoute,
  json,
  type ApiRoute,
  type RouteExports,
  type RouteRoot,
  type RouteServices,
} from "@/lib/server/http/route";
import { keepTeamRun } from "@/lib/server/inquiry/runs/record";
import { exchangeAuditFields, exchangeLogFields, runInquiry, type InquiryDeps } from "./operations";

/** What an inquiry route needs of the root it is bound to (lib/server/root/route). */
export interface InquiryRouteRoot extends RouteRoot {
  inquiry: InquiryDeps;
  services(): Promise<RouteServices & { db: Database }>;
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
      const session = await context.session();
      const record = await context.audited(
        {
          event: INQUIRY_AUDIT_EVENTS[operation],
          outcome: "success",
          operation,
          environment: await context.environment(),
          card: input.card_number,
        },
        () => runInquiry(context.root.inquiry, session, operation, input),
        exchangeAuditFields,
      );
      context.annotate(exchangeLogFields(record));
      const response = json(record);
      keepTeamRun(context, operation, input.card_number, record);
      return response;
    },
    { upstream: true },
  );
  return defineRoute({ POST });
}
