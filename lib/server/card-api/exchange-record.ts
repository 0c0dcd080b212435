/**
 * Turns one HTTP exchange into the exchange record of docs/design.md §4: what was sent and what came back, with
 * every secret redacted (lib/shared/redaction: by key, by form, and the exact secret and token values of the call)
 * and every card number masked to its first 6 and last 4 digits, in headers and bodies alike.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type {
  EnvironmentName,
  ExchangeRecord,
  ExchangeTimings,
  OperationName,
  TokenEvent,
} from "@/lib/shared/contracts";
import { summarizeBody } from "@/lib/shared/exchange-summary";
import { createRedactor } from "@/lib/shared/redaction";
import type { BodyCheck, RawExchange } from "./client";

export interface RecordInput {
  operation: OperationName;
  environment: EnvironmentName;
  exchange: RawExchange;
  check: BodyCheck<unknown>;
  tokenEvents?: TokenEvent[];
  requestId?: string;
  timings?: ExchangeTimings;
  /**
   * Exact values to hide wherever they appear: the client secret used and the access tokens involved
   * (the session's current and previous ones), so that an upstream echoing them cannot leak them.
   */
  secrets?: Iterable<string | undefined>;
}

export function buildExchangeRecord(input: RecordInput): ExchangeRecord {
  const { operation, environment, exchange, check, tokenEvents = [], requestId, timings } = input;
  const redact = createRedactor(input.secrets);
  // A text answer may be JSON written oddly (escaped digits): judged as a body, like the request's.
  const body = check.isJson ? redact.value(check.value) : redact.body(check.value);
  // Only when a 2xx answer matched the spec's schema; read from the shown body, whose checked fields it holds.
  const summary = check.data === null ? null : summarizeBody(operation, body);
  return {
    id: randomUUID(),
    operation,
    environment,
    started_at: new Date(exchange.startedAt).toISOString(),
    duration_ms: exchange.durationMs,
    ...(requestId === undefined ? {} : { request_id: requestId }),
    request: {
      method: exchange.request.method,
      url: redact.text(exchange.request.url),
      headers: redact.headers(exchange.request.headers),
      // A free-form body is the caller's text: cards in it are found in its parsed JSON, escapes decoded.
      body: redact.body(exchange.request.body),
    },
    response: {
      status: exchange.response.status,
      headers: redact.headers(exchange.response.headers),
      body,
      ...(check.isJson ? {} : { body_is_text: true }),
      ...(check.issues.length > 0 ? { schema_issues: check.issues.map(redact.text) } : {}),
    },
    token_events: tokenEvents.map((event) => ({
      ...event,
      ...(event.detail === undefined ? {} : { detail: redact.text(event.detail) }),
    })),
    ...(timings ? { timings } : {}),
    ...(summary ? { summary } : {}),
  };
}
