/**
 * An exchange record as code that runs as copied, in any language of the one generator
 * (lib/shared/code-samples.ts), against the same address.
 *
 * - What the browser never has is read from the environment: ACCESS_TOKEN, and CLIENT_ID and CLIENT_SECRET for a
 *   token request; a missing one stops with a message.
 * - A Gift Balance Inquiry gets a fresh Request Id on every run (a reused one is a 409 duplicate_request_id).
 * - The card number is never the masked one (the API refuses it): the full number the user typed, when the
 *   caller passes it and it matches the recorded mask, else CARD_NUMBER from the environment.
 * - With `token`, shell and JavaScript code first request a token with CLIENT_ID and CLIENT_SECRET.
 */
import { matchesMask } from "./card-mask";
import {
  BEARER_STAND_IN,
  SAMPLE_VALUE,
  codeSample,
  type CodeLanguage,
  type SampleRequest,
} from "@/lib/shared/code-samples";
import type { ExchangeRecord } from "@/lib/shared/contracts";

export interface TokenRequestTarget {
  /** `{auth_url}/reporting/v1/auth/token` of the environment. */
  url: string;
}

export interface CodeExportOptions {
  /** The full card number as the user typed it; used only when it matches the recorded masked number. */
  fullCardNumber?: string | null;
  /** Fetch the access token first ("with token request"); otherwise ACCESS_TOKEN must be set. */
  token?: TokenRequestTarget | null;
}

export { matchesMask };

/** Headers a client sets by itself or that must not be replayed. */
const DROPPED_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "accept-encoding",
  "user-agent",
  "cookie",
  "transfer-encoding",
]);

function prepareBody(body: unknown, options: CodeExportOptions, key?: string): unknown {
  if (typeof body === "string") {
    if (key === "client_secret") return SAMPLE_VALUE.clientSecret;
    if (key === "client_id") return SAMPLE_VALUE.clientId;
    if (key === "card_number") {
      if (options.fullCardNumber && matchesMask(body, options.fullCardNumber)) return options.fullCardNumber;
      return /^\d+$/.test(body) ? body : SAMPLE_VALUE.cardNumber;
    }
    return body;
  }
  if (Array.isArray(body)) return body.map((item) => prepareBody(item, options));
  if (typeof body === "object" && body !== null) {
    return Object.fromEntries(
      Object.entries(body).map(([childKey, child]) => [childKey, prepareBody(child, options, childKey)]),
    );
  }
  return body;
}

/** The exchange's request with stand-ins for the token, the secret, a masked card and a Request Id to renew. */
export function exchangeSampleRequest(
  exchange: ExchangeRecord,
  options: CodeExportOptions = {},
): SampleRequest {
  const { method, url, headers, body } = exchange.request;
  const gift = exchange.operation === "gift_balance_inquiry";
  const prepared: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower)) continue;
    if (lower === "authorization") prepared.push([name, BEARER_STAND_IN]);
    else if (lower === "x-request-id" && gift) prepared.push([name, SAMPLE_VALUE.requestId]);
    else prepared.push([name, value]);
  }
  const has = (header: string) => prepared.some(([name]) => name.toLowerCase() === header);
  // The record may lack the header (e.g. a call refused before sending); every inquiry needs it.
  if (exchange.operation !== "token" && !has("authorization"))
    prepared.unshift(["Authorization", BEARER_STAND_IN]);
  if (gift && !has("x-request-id")) prepared.push(["X-Request-Id", SAMPLE_VALUE.requestId]);
  const bodyText =
    body === undefined || body === null || body === ""
      ? null
      : typeof body === "string"
        ? body
        : JSON.stringify(prepareBody(body, options), null, 2);
  return { method, url, headers: prepared, body: bodyText };
}

export function exchangeToCode(
  exchange: ExchangeRecord,
  language: CodeLanguage,
  options: CodeExportOptions = {},
): string {
  const request = exchangeSampleRequest(exchange, options);
  const masked = JSON.stringify(exchange.request.body ?? "").match(/"card_number":"([^"]*)"/)?.[1];
  const notes =
    masked && request.body?.includes(SAMPLE_VALUE.cardNumber)
      ? [`CARD_NUMBER: the full card number (the console keeps only ${masked}).`]
      : [];
  return codeSample(language, request, { tokenUrl: options.token?.url ?? null, notes });
}

export const exchangeToCurl = (exchange: ExchangeRecord, options: CodeExportOptions = {}) =>
  exchangeToCode(exchange, "shell", options);

export const exchangeToFetch = (exchange: ExchangeRecord, options: CodeExportOptions = {}) =>
  exchangeToCode(exchange, "javascript", options);
