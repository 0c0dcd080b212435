/**
 * Turns one HTTP exchange into the exchange record of DESIGN.md §4: what was sent and what came back, with
 * every secret redacted (Authorization, client secrets, tokens, anything shaped like a JWT) and every card
 * number masked to its first 6 and last 4 digits, in headers and bodies alike.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type {
  EnvironmentName,
  ExchangeRecord,
  ExchangeTimings,
  OperationName,
  TokenEvent,
} from "@/lib/api/contracts";
import { maskCardNumbersDeep, maskCardNumbersInText } from "@/lib/masking";
import { REDACTED, type BodyCheck, type RawExchange } from "./client";

const SECRET_KEYS = new Set([
  "client_secret",
  "access_token",
  "refresh_token",
  "id_token",
  "password",
  "authorization",
  "cookie",
  "set-cookie",
]);
const JWT_LIKE = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;

/**
 * Copy of a JSON value made safe to show: secret-named fields and JWT-shaped strings become "[REDACTED]",
 * and card-like digit runs are masked, in keys and values. One walk does both.
 */
export function sanitizeDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    const redacted = value.includes("eyJ") ? value.replace(JWT_LIKE, REDACTED) : value;
    return maskCardNumbersInText(redacted);
  }
  if (value === null || typeof value !== "object") return maskCardNumbersDeep(value);
  if (depth > 64) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => sanitizeDeep(item, depth + 1));
  // fromEntries defines own properties: a key such as "__proto__" stays a key, not a prototype.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      maskCardNumbersInText(key),
      SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : sanitizeDeep(item, depth + 1),
    ]),
  );
}

function safeHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      const lower = name.toLowerCase();
      const shown =
        lower === "authorization"
          ? value.replace(/^(\w+\s+).*$/, `$1${REDACTED}`)
          : SECRET_KEYS.has(lower)
            ? REDACTED
            : (sanitizeDeep(value) as string);
      return [maskCardNumbersInText(name), shown];
    }),
  );
}

export interface RecordInput {
  operation: OperationName;
  environment: EnvironmentName;
  exchange: RawExchange;
  check: BodyCheck<unknown>;
  tokenEvents?: TokenEvent[];
  requestId?: string;
  timings?: ExchangeTimings;
}

export function buildExchangeRecord(input: RecordInput): ExchangeRecord {
  const { operation, environment, exchange, check, tokenEvents = [], requestId, timings } = input;
  const responseBody = sanitizeDeep(check.value);
  return {
    id: randomUUID(),
    operation,
    environment,
    started_at: new Date(exchange.startedAt).toISOString(),
    duration_ms: exchange.durationMs,
    ...(requestId === undefined ? {} : { request_id: requestId }),
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      headers: safeHeaders(exchange.request.headers),
      body: sanitizeDeep(exchange.request.body),
    },
    response: {
      status: exchange.response.status,
      headers: safeHeaders(exchange.response.headers),
      body: responseBody,
      ...(check.isJson ? {} : { body_is_text: true }),
      ...(check.issues.length > 0 ? { schema_issues: check.issues } : {}),
    },
    token_events: tokenEvents,
    ...(timings ? { timings } : {}),
  };
}
