/**
 * A Gift Balance Inquiry the console sent but got no answer for (504 upstream_timeout, 502
 * upstream_unreachable / upstream_tls_error): the upstream may or may not have recorded a transaction. History
 * keeps it as a record with status 0 ("no answer") and the Request Id sent, so that it can be looked up or
 * retried with the same id later, instead of vanishing.
 */
import type {
  EnvironmentName,
  ExchangeRecord,
  FreeFormRequestInput,
  GiftBalanceInquiryInput,
} from "@/lib/shared/contracts";
import type { ErrorDetailsByCode, ErrorWithDetails, NoAnswerCode } from "@/lib/shared/error-details";
import { defaultRedactor, REDACTED } from "@/lib/shared/redaction";
import { maskCardNumber } from "./card-mask";
import type { ApiClientError } from "./fetcher";

const NO_ANSWER_STATUS = 0;

export function isOutcomeUnknown(exchange: ExchangeRecord): boolean {
  return exchange.response.status === NO_ANSWER_STATUS;
}

/**
 * The Request Id a call without an answer was sent with (a Gift Balance Inquiry's), as the details of its
 * `upstream_*` error name it (every `upstream_*` code is a NoAnswerCode). Kept small: every page loads it.
 */
export function requestIdOfError(error: ErrorWithDetails): string | null {
  const details = error.code.startsWith("upstream_")
    ? (error.details as Partial<ErrorDetailsByCode[NoAnswerCode]> | undefined)
    : undefined;
  const requestId = details && "request_id" in details ? details.request_id : undefined;
  return typeof requestId === "string" ? requestId : null;
}

/** The upstream address a call without an answer was sent to, as the details of its error name it. */
function upstreamUrlOfError(error: ErrorWithDetails): string | null {
  const details = error.details as Partial<ErrorDetailsByCode[NoAnswerCode]> | undefined;
  const url = details && "url" in details ? details.url : undefined;
  return typeof url === "string" && URL.canParse(url) ? url : null;
}

/** True for the statuses after which the upstream may have acted: it was called, and did not answer (502/504). */
export function isNoAnswerStatus(status: number): boolean {
  return status === 502 || status === 504;
}

/** True for the errors after which the upstream may have acted: it was called, and did not answer. */
export function isNoAnswerError(error: ApiClientError): boolean {
  return isNoAnswerStatus(error.status);
}

interface NoAnswer {
  requestId: string;
  error: ApiClientError;
  environment: EnvironmentName;
  startedAt: Date;
  durationMs: number;
}

/** The record of a Gift Balance Inquiry sent as `request` that got no answer; null without its upstream address. */
function noAnswerRecord(
  { requestId, error, environment, startedAt, durationMs }: NoAnswer,
  request: Omit<ExchangeRecord["request"], "method" | "url">,
): ExchangeRecord | null {
  // The record names the upstream address, as a record with an answer does: without one it cannot be re-sent.
  const url = upstreamUrlOfError(error);
  if (url === null) return null;
  return {
    id: `outcome-unknown-${requestId}-${startedAt.getTime()}`,
    operation: "gift_balance_inquiry",
    environment,
    started_at: startedAt.toISOString(),
    duration_ms: Math.round(durationMs),
    request_id: requestId,
    request: { method: "POST", url, ...request },
    response: {
      status: NO_ANSWER_STATUS,
      headers: {},
      body: { error: { code: error.code, message: error.message } },
    },
    token_events: [],
  };
}

export function outcomeUnknownRecord({
  input,
  ...noAnswer
}: NoAnswer & { input: GiftBalanceInquiryInput }): ExchangeRecord | null {
  return noAnswerRecord(noAnswer, {
    // As the console's card API client sends a Gift Balance Inquiry, the token redacted as in every record.
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      Authorization: `Bearer ${REDACTED}`,
      "X-Request-Id": noAnswer.requestId,
    },
    body: {
      data: {
        entry_mode: input.entry_mode ?? "keyed",
        card_number: maskCardNumber(input.card_number),
        pin_mode: input.pin_mode ?? "none",
        originator: { location_id: input.location_id },
      },
    },
  });
}

/** Header names compared as HTTP does. */
function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([key]) => key.toLowerCase() !== name.toLowerCase()),
  );
}

/** The free-form request's headers as sent: the Request Id it went with, the default Content-Type. */
export function freeFormHeadersWithRequestId(
  headers: Record<string, string> | undefined,
  requestId: string,
): Record<string, string> {
  const given = withoutHeader(headers ?? {}, "X-Request-Id");
  const hasType = Object.keys(given).some((name) => name.toLowerCase() === "content-type");
  return { ...(hasType ? {} : { "Content-Type": "application/json" }), ...given, "X-Request-Id": requestId };
}

/** A free-form Gift Balance Inquiry without an answer, its headers and raw body kept (card numbers masked). */
export function outcomeUnknownFreeFormRecord({
  input,
  ...noAnswer
}: NoAnswer & { input: FreeFormRequestInput }): ExchangeRecord | null {
  const record = noAnswerRecord(noAnswer, {
    headers: freeFormHeadersWithRequestId(input.headers, noAnswer.requestId),
    // As the server records a body: cards found in its parsed JSON too (escaped digits), not only in its text.
    body: String(defaultRedactor.body(input.body ?? "")),
  });
  return record && { ...record, free_form: true };
}
