/**
 * The console route of an inquiry operation (`POST /api/inquiries/...`): its input schema and access are its
 * catalogue entry's (the operation itself, plus raw exchange), and the call is audited with
 * the card masked and its keyed hash, the upstream's status and X-Request-Id. One factory, so a new inquiry
 * operation's route file is two lines. The answer is the exchange record plus the session as it now stands.
 */
import "server-only";
import type { z } from "zod";
import type { AuditEventName } from "@/lib/shared/audit-events";
import type { inquiryAnswerSchema } from "@/lib/shared/contracts";
import type { InquiryOperation } from "@/lib/shared/operations";
import type { DeclaredMethod, DeclaredRoute } from "@/lib/server/http/declaration";
import {
  defineRoute,
  json,
  type ApiRoute,
  type RouteExports,
  type RouteRoot,
  type RouteServices,
} from "@/lib/server/http/route";
import { keepTeamRun } from "@/lib/server/inquiry/runs/record";
import type { TeamRunWriter } from "@/lib/server/inquiry/runs/writer";
import type { CallContexts } from "@/lib/server/token/call-context";
import { auditedExchange, inquiryAnswer } from "./exchange-route";
import { runInquiry, type InquiryInput } from "./operations";

/** What an inquiry route needs of the root it is bound to (lib/server/root/route). */
export interface InquiryRouteRoot extends RouteRoot {
  /** Each call's context, resolved once from the caller's session (lib/server/token/call-context). */
  calls: CallContexts;
  services(): Promise<RouteServices & { teamRuns: TeamRunWriter }>;
}

/**
 * A catalogue entry of an inquiry route, by its shape (the catalogue sits above this module): POST with the
 * operation's input, answering the exchange record with the session.
 */
type InquiryRouteEntry = DeclaredRoute & {
  readonly POST: Omit<DeclaredMethod, "body" | "answers"> & {
    body: { schema: z.ZodType<InquiryInput> };
    answers: { 200: { description: string; schema: typeof inquiryAnswerSchema } };
  };
};

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
    const record = await auditedExchange(
      context,
      {
        event: INQUIRY_AUDIT_EVENTS[operation],
        outcome: "success",
        operation,
        environment: call.environment.name,
        card: input.card_number,
      },
      () => runInquiry(call, operation, input),
    );
    const response = json(inquiryAnswer(context.config, call, user, record));
    keepTeamRun(context, operation, input.card_number, record);
    return response;
  });
  return defineRoute(route, { POST });
}
