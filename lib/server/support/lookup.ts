/**
 * One support desk lookup: a Balance Inquiry (never a Gift Balance Inquiry: this module cannot name one) through
 * the console's card API client and token broker, answered in the support shape, masked for the caller's role,
 * with one audit row.
 */
import "server-only";
import type { EnvironmentName, ExchangeRecord } from "@/lib/shared/contracts";
import type { AuditLog } from "@/lib/server/audit";
import { maskCardNumberForRoles } from "@/lib/server/identity/roles";
import type { InquiryInput } from "@/lib/server/inquiry/operations";
import { ApiError } from "@/lib/server/util/errors";
import { lookupAuditEntry, writeSupportAudit, type AuditActor } from "./audit-rows";
import type { ShownCard, SupportLookupResult } from "@/lib/shared/support-contract";
import { classifyNoAnswer, classifyRecord, type ClassifiedLookup } from "./outcome";

/** The spec's card request needs an originator location; the support desk's lookups all come from here. */
const SUPPORT_LOCATION_ID = "support-desk";

/** The Balance Inquiry body of a support lookup: nothing in it comes from the caller but the card number. */
export function supportInquiryInput(cardNumber: string, environment: EnvironmentName): InquiryInput {
  return {
    card_number: cardNumber,
    location_id: SUPPORT_LOCATION_ID,
    entry_mode: "keyed",
    pin_mode: "none",
    environment,
  };
}

type BalanceInquirySender = (input: InquiryInput) => Promise<ExchangeRecord>;

/**
 * Runs the inquiry and classifies it. "No answer" (timeout, unreachable) is an outcome; anything else that
 * stops the call before the upstream (no credentials, environment changed) is thrown as it was.
 */
async function classifiedInquiry(
  send: BalanceInquirySender,
  cardNumber: string,
  environment: EnvironmentName,
): Promise<ClassifiedLookup> {
  try {
    return classifyRecord(await send(supportInquiryInput(cardNumber, environment)));
  } catch (error) {
    const noAnswer = classifyNoAnswer(error);
    if (noAnswer) return noAnswer;
    throw error;
  }
}

export function shownCard(cardNumber: string, roles: AuditActor["roles"]): ShownCard {
  return { last4: cardNumber.slice(-4), masked: maskCardNumberForRoles(cardNumber, roles) };
}

export interface SupportLookupRequest {
  send: BalanceInquirySender;
  cardNumber: string;
  environment: EnvironmentName;
  reason: string | undefined;
  actor: AuditActor;
  auditLog: Pick<AuditLog, "append">;
  now?: () => number;
}

export async function supportLookup(request: SupportLookupRequest): Promise<SupportLookupResult> {
  const { cardNumber, environment, actor, reason } = request;
  const now = request.now ?? Date.now;
  const started = now();
  let classified: ClassifiedLookup;
  try {
    classified = await classifiedInquiry(request.send, cardNumber, environment);
  } catch (error) {
    const code = error instanceof ApiError ? error.code : "internal_error";
    await writeSupportAudit(
      request.auditLog,
      lookupAuditEntry({ actor, environment, cardNumber, outcome: code, upstreamStatus: null, reason }),
    );
    throw error;
  }
  await writeSupportAudit(
    request.auditLog,
    lookupAuditEntry({
      actor,
      environment,
      cardNumber,
      outcome: classified.outcome,
      upstreamStatus: classified.upstreamStatus,
      reason,
    }),
  );
  return {
    card: shownCard(cardNumber, actor.roles),
    environment,
    outcome: classified.outcome,
    message: classified.message,
    balances: classified.balances,
    upstream_status: classified.upstreamStatus,
    retry_after_seconds: classified.retryAfterSeconds,
    looked_up_at: new Date(started).toISOString(),
    duration_ms: Math.max(0, now() - started),
  };
}
