/**
 * Defensive clean-up of an exchange record before the browser keeps or exports it. The server already
 * masks card numbers and redacts secrets; this makes the browser's store safe even for a record that
 * was imported from a file or produced by an older server. Same rule and marker as the server
 * (lib/shared/redaction), by key and form: the browser never knows the exact secrets.
 */
import type { ExchangeBodySummary, ExchangeRecord } from "@/lib/shared/contracts";
import { defaultRedactor } from "@/lib/shared/redaction";

function sanitizeHeaders(headers: Record<string, string>): Record<string, string> {
  return defaultRedactor.headers(headers);
}

/** Walks a JSON value: masks card numbers, redacts secret fields and anything shaped like a JWT. */
function sanitizeJson(value: unknown): unknown {
  return defaultRedactor.value(value);
}

export function sanitizeExchange(exchange: ExchangeRecord): ExchangeRecord {
  return {
    ...exchange,
    request: {
      ...exchange.request,
      url: defaultRedactor.text(exchange.request.url),
      headers: sanitizeHeaders(exchange.request.headers),
      body: sanitizeJson(exchange.request.body),
    },
    response: {
      ...exchange.response,
      headers: sanitizeHeaders(exchange.response.headers),
      body:
        typeof exchange.response.body === "string" && exchange.response.body_is_text
          ? defaultRedactor.text(exchange.response.body)
          : sanitizeJson(exchange.response.body),
    },
    ...(exchange.summary ? { summary: sanitizeJson(exchange.summary) as ExchangeBodySummary } : {}),
  };
}
