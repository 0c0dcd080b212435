/**
 * Defensive clean-up of an exchange record before the browser keeps or exports it. The server already
 * masks card numbers and redacts secrets; this makes the browser's store safe even for a record that
 * was imported from a file or produced by an older server.
 */
import type { ExchangeRecord } from "@/lib/api/contracts";
import { isFullCardNumber, maskCardNumber, maskCardNumbersInText } from "./card-mask";

export const REDACTED = "[redacted]";

const SECRET_KEYS = new Set(["access_token", "refresh_token", "id_token", "client_secret", "password"]);
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

function redactHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return maskCardNumbersInText(value);
  const scheme = /^(Bearer|Basic)\s/i.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

export function sanitizeHeaders(headers: Record<string, string>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) clean[name] = redactHeaderValue(name, String(value));
  return clean;
}

/** Walks a JSON value: masks card numbers, redacts secret fields. */
export function sanitizeJson(value: unknown, key?: string): unknown {
  if (typeof value === "string") {
    if (key !== undefined && SECRET_KEYS.has(key.toLowerCase())) return value === "" ? value : REDACTED;
    if (key === "card_number") return maskCardNumbersInText(value);
    return isFullCardNumber(value) ? maskCardNumber(value) : value;
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
      url: maskCardNumbersInText(exchange.request.url),
      headers: sanitizeHeaders(exchange.request.headers),
      body: sanitizeJson(exchange.request.body),
    },
    response: {
      ...exchange.response,
      headers: sanitizeHeaders(exchange.response.headers),
      body:
        typeof exchange.response.body === "string" && exchange.response.body_is_text
          ? maskCardNumbersInText(exchange.response.body)
          : sanitizeJson(exchange.response.body),
    },
  };
}
