/**
 * What the routes that make one upstream exchange (the inquiries, the free-form request, the lookup) do around
 * it: the call audited with the exchange's outcome, its fields in the call's log line, and the answer's session.
 */
import "server-only";
import type { ExchangeRecord, InquiryAnswer } from "@/lib/shared/contracts";
import type { AuditFields } from "@/lib/server/audit/record";
import type { ServerConfig } from "@/lib/server/config";
import type { RouteContext } from "@/lib/server/http/route";
import type { SignedInUser } from "@/lib/server/identity/me";
import { can } from "@/lib/server/identity/roles";
import type { CallContext } from "@/lib/server/token/call-context";
import { describeSession } from "@/lib/server/token/session-info";
import { exchangeAuditFields, exchangeLogFields } from "./operations";

/**
 * Runs the exchange, audited as `fields` with the upstream's status and X-Request-Id (a thrown ApiError as a
 * failure), and adds the exchange and `log` to the call's log line. It hands back `audited`'s promise without
 * awaiting it, so that it adds no frame to the way to the upstream.
 */
export function auditedExchange(
  context: Pick<RouteContext, "audited" | "annotate">,
  fields: AuditFields,
  exchange: () => Promise<ExchangeRecord>,
  log: Record<string, unknown> = {},
): Promise<ExchangeRecord> {
  return context.audited(fields, exchange, (record) => {
    context.annotate({ ...exchangeLogFields(record), ...log });
    return exchangeAuditFields(record);
  });
}

/** The exchange record with the session as it now stands (token details as the user's roles allow them). */
export function inquiryAnswer(
  config: ServerConfig,
  call: CallContext,
  user: SignedInUser,
  record: ExchangeRecord,
): InquiryAnswer {
  return {
    ...record,
    session: describeSession(config, call, (where) => can(user.roles, "token_details", where)),
  };
}
