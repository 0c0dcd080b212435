/**
 * The two balance inquiries (API specification §4.3) on a call context (lib/server/token/call-context), driven by the one
 * authorized-call driver (lib/server/token/authorized), and what the routes log and audit of an answer.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { balanceInquiryInputSchema, EnvironmentName, ExchangeRecord } from "@/lib/shared/contracts";
import type { InquiryOperation } from "@/lib/shared/operations";
import { callWithToken } from "@/lib/server/token/authorized";
import { assertEnvironment, type CallContext } from "@/lib/server/token/call-context";

/** A validated inquiry body with defaults applied (contracts' schemas). */
export type InquiryInput = z.output<typeof balanceInquiryInputSchema> & { request_id?: string };

/** A Gift Balance Inquiry carries a Request Id (the caller's, else a new one); a Balance Inquiry none. */
export async function runInquiry(
  call: CallContext,
  operation: InquiryOperation,
  input: InquiryInput,
): Promise<ExchangeRecord> {
  const started = performance.now();
  assertEnvironment(call, input.environment);
  const card = {
    entry_mode: input.entry_mode,
    card_number: input.card_number,
    pin_mode: input.pin_mode,
    originator: { location_id: input.location_id },
  };
  const requestId = operation === "gift_balance_inquiry" ? (input.request_id ?? randomUUID()) : undefined;
  return callWithToken(call, { operation, card, ...(requestId === undefined ? {} : { requestId }) }, started);
}

/** A support batch card's Balance Inquiry (lib/server/support/batch-runner `DetachedInquiry`). */
export function batchBalanceInquiry(call: CallContext, input: InquiryInput): Promise<ExchangeRecord> {
  return runInquiry(call, "balance_inquiry", input);
}

/** The fields of a run for the call's log line: what happened upstream, without secrets or card numbers. */
export function exchangeLogFields(record: ExchangeRecord): Record<string, unknown> {
  return {
    operation: record.operation,
    environment: record.environment,
    upstream_url: record.request.url,
    upstream_status: record.response.status,
    upstream_ms: record.duration_ms,
    ...(record.request_id === undefined ? {} : { request_id: record.request_id }),
    ...(record.token_events.length > 0
      ? { token_events: record.token_events.map((event) => event.type) }
      : {}),
    ...(record.response.schema_issues ? { schema_issues: record.response.schema_issues.length } : {}),
  };
}

/** An answered call's audit fields: the upstream's status and X-Request-Id; success when it answered 1xx–3xx. */
export function exchangeAuditFields(record: ExchangeRecord): {
  outcome: "success" | "failure";
  upstreamStatus: number;
  requestId?: string;
  environment: EnvironmentName;
} {
  const status = record.response.status;
  return {
    outcome: status < 400 ? "success" : "failure",
    upstreamStatus: Math.min(599, Math.max(100, status)),
    environment: record.environment,
    ...(record.request_id === undefined ? {} : { requestId: record.request_id }),
  };
}
