/**
 * An exchange record as code that runs as copied, in any language of the one generator
 * (lib/shared/code-samples.ts), against the same address. Form runs, free-form runs, team runs and History
 * entries (imported ones too) all come here.
 *
 * - What the browser never has is read from the environment: ACCESS_TOKEN, and CLIENT_ID and CLIENT_SECRET for a
 *   token request; a missing one stops with a message.
 * - A Gift Balance Inquiry gets a fresh Request Id on every run (a reused one is a 409 duplicate_request_id).
 * - The card number is never the masked one (the API refuses it): the full number the user typed, when the
 *   caller passes it and it matches the recorded mask, else CARD_NUMBER read from the environment into the body.
 * - With `token`, shell and JavaScript code first request a token with CLIENT_ID and CLIENT_SECRET.
 */
import { matchesMask } from "./card-mask";
import {
  BEARER,
  FRESH_UUID,
  codeSample,
  jsonValue,
  read,
  text,
  type CodeLanguage,
  type Piece,
  type SampleRequest,
  type Value,
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

/** Headers a client sets by itself or that must not be replayed (Java's HttpClient refuses some). */
const DROPPED_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "accept-encoding",
  "user-agent",
  "cookie",
  "transfer-encoding",
  "expect",
  "upgrade",
]);

/** A masked card as the console records it: first 6 and last 4 kept, or masked whole. */
const MASKED_CARD = /\d{6}\*{2,9}\d{4}|\*{12,19}/g;
const isMasked = (value: string) => new RegExp(`^(?:${MASKED_CARD.source})$`).test(value);

/** What the code sends for a recorded card: the typed number when it is this card's, else CARD_NUMBER. */
function cardPiece(recorded: string, options: CodeExportOptions, as: "text" | "json"): Piece {
  const full = options.fullCardNumber;
  if (full && matchesMask(recorded, full)) return text(as === "json" ? JSON.stringify(full) : full);
  return read("CARD_NUMBER", as);
}

/** A body parsed from JSON: the secret, the client id and a masked card become reads; `replaced` says if any did. */
function structuredBody(body: unknown, token: boolean, options: CodeExportOptions) {
  let replaced = false;
  const pieces = jsonValue(body, (key, value) => {
    const piece =
      token && key === "client_secret"
        ? read("CLIENT_SECRET", "json")
        : token && key === "client_id"
          ? read("CLIENT_ID", "json")
          : key === "card_number" && isMasked(value)
            ? cardPiece(value, options, "json")
            : null;
    replaced ||= piece !== null;
    return piece;
  });
  return { pieces, replaced };
}

function parsed(body: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(body) as unknown };
  } catch {
    return null;
  }
}

/**
 * A body recorded as text (a free-form run): the exact text that was sent, unless it holds what must not be
 * written in. JSON is then rebuilt from its value; other text keeps its bytes, each masked card in it becoming
 * the card.
 */
function textBody(body: string, token: boolean, options: CodeExportOptions): Value {
  const json = parsed(body);
  if (json) {
    const structured = structuredBody(json.value, token, options);
    return structured.replaced ? structured.pieces : [text(body)];
  }
  const parts = body.split(new RegExp(`(${MASKED_CARD.source})`));
  return parts.map((part, index) => (index % 2 === 1 ? cardPiece(part, options, "text") : text(part)));
}

/** The exchange's request with run-time reads for the token, the secret, a masked card and a fresh Request Id. */
export function exchangeSampleRequest(
  exchange: ExchangeRecord,
  options: CodeExportOptions = {},
): SampleRequest {
  const { method, url, headers, body } = exchange.request;
  const gift = exchange.operation === "gift_balance_inquiry";
  const token = exchange.operation === "token";
  const prepared: Array<[string, Value | string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower)) continue;
    if (lower === "authorization") prepared.push([name, BEARER]);
    else if (lower === "x-request-id" && gift) prepared.push([name, FRESH_UUID]);
    else prepared.push([name, value]);
  }
  const has = (header: string) => prepared.some(([name]) => name.toLowerCase() === header);
  // The record may lack the header (e.g. a call refused before sending); every inquiry needs it.
  if (!token && !has("authorization")) prepared.unshift(["Authorization", BEARER]);
  if (gift && !has("x-request-id")) prepared.push(["X-Request-Id", FRESH_UUID]);
  const sent =
    body === undefined || body === null || body === ""
      ? null
      : typeof body === "string"
        ? textBody(body, token, options)
        : structuredBody(body, token, options).pieces;
  return { method, url, headers: prepared, body: sent };
}

export function exchangeToCode(
  exchange: ExchangeRecord,
  language: CodeLanguage,
  options: CodeExportOptions = {},
): string {
  const request = exchangeSampleRequest(exchange, options);
  const readsCard =
    Array.isArray(request.body) &&
    request.body.some((piece) => "read" in piece && piece.read === "CARD_NUMBER");
  const masked = JSON.stringify(exchange.request.body ?? "").match(MASKED_CARD)?.[0];
  const notes =
    readsCard && masked ? [`CARD_NUMBER: the full card number (the console keeps only ${masked}).`] : [];
  return codeSample(language, request, { tokenUrl: options.token?.url ?? null, notes });
}

export const exchangeToCurl = (exchange: ExchangeRecord, options: CodeExportOptions = {}) =>
  exchangeToCode(exchange, "shell", options);

export const exchangeToFetch = (exchange: ExchangeRecord, options: CodeExportOptions = {}) =>
  exchangeToCode(exchange, "javascript", options);
