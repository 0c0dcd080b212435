/**
 * Defensive clean-up of an exchange record before the browser keeps or exports it. The server already
 * masks card numbers and redacts secrets; this makes the browser's store safe even for a record that
 * was imported from a file or produced by an older server.
 */
import type { ExchangeRecord } from "@/lib/api/contracts";
import { isFullCardNumber, maskCardNumber, maskCardNumbersInText } from "./card-mask";

export const REDACTED = "[redacted]";

/** Three base64url segments starting like a JSON header: a JWT, wherever it appears. */
const JWT_LIKE = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;

const SECRET_KEYS = new Set(["access_token", "refresh_token", "id_token", "client_secret", "password"]);
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

function cleanText(text: string): string {
  return maskCardNumbersInText(text.replace(JWT_LIKE, REDACTED));
}

function redactHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return cleanText(value);
  const scheme = /^(Bearer|Basic)\s/i.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

export function sanitizeHeaders(headers: Record<string, string>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) clean[name] = redactHeaderValue(name, String(value));
  return clean;
}

/** Walks a JSON value: masks card numbers, redacts secret fields and anything shaped like a JWT. */
export function sanitizeJson(value: unknown, key?: string): unknown {
  if (typeof value === "string") {
    if (key !== undefined && SECRET_KEYS.has(key.toLowerCase())) return value === "" ? value : REDACTED;
    return isFullCardNumber(value) ? maskCardNumber(value) : cleanText(value);
  }
  if (Array.isArray(value)) return value.map((item) => sanitizeJson(item));
  if (typeof value === "object" && value !== null) {
    const clean: Record<string, unknown> = {};
    for (const [childKey, child] of Object.entries(value)) clean[childKey] = sanitizeJson(child, childKey);
    return clean;
  }
  return value;
}

export function sanitizeExchange(exchange: ExchangeRecord): ExchangeRecord {
  return {
    ...exchange,
    request: {
      ...exchange.request,
      url: cleanText(exchange.request.url),
      headers: sanitizeHeaders(exchange.request.headers),
      body: sanitizeJson(exchange.request.body),
    },
    response: {
      ...exchange.response,
      headers: sanitizeHeaders(exchange.response.headers),
      body:
        typeof exchange.response.body === "string" && exchange.response.body_is_text
          ? cleanText(exchange.response.body)
          : sanitizeJson(exchange.response.body),
    },
  };
}
