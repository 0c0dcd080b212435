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
import { maskCardNumbersDeep } from "@/lib/masking";
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

/** Copy of a JSON value with secret-named fields and JWT-shaped strings replaced by "[REDACTED]". */
export function redactSecretsDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.replace(JWT_LIKE, REDACTED);
  if (value === null || typeof value !== "object" || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => redactSecretsDeep(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redactSecretsDeep(item, depth + 1);
  }
  return copy;
}

function safeHeaders(headers: Record<string, string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    copy[name] =
      name.toLowerCase() === "authorization"
        ? value.replace(/^(\w+\s+).*$/, `$1${REDACTED}`)
        : SECRET_KEYS.has(name.toLowerCase())
          ? REDACTED
          : value.replace(JWT_LIKE, REDACTED);
  }
  return maskCardNumbersDeep(copy);
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
  const responseBody = maskCardNumbersDeep(redactSecretsDeep(check.value));
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
      body: maskCardNumbersDeep(redactSecretsDeep(exchange.request.body)),
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
