/**
 * What the request editor of /inquiry holds: the operation, the headers in order, the raw body and a lookup's
 * Request Id; made from the inquiry form, a pasted cURL command or a recorded free-form exchange, and turned
 * into a `POST /api/requests` body. The card operations' wire form is the client's (API specification §2.3, §4.2).
 */
import type { ExchangeRecord, FreeFormRequestInput } from "@/lib/shared/contracts";
import type { CurlRequest } from "@/lib/shared/curl-command";
import { asFreeFormOperation, type FreeFormOperation } from "@/lib/shared/free-form";
import { MASK_CHARACTER } from "@/lib/shared/masking";
import type { InquiryOperation } from "@/lib/shared/operations";
import { newRequestId } from "./request-id";

export interface HeaderRow {
  /** A key for the list, never sent. */
  key: string;
  name: string;
  value: string;
}

export interface FreeFormDraft {
  operation: FreeFormOperation;
  headers: HeaderRow[];
  body: string;
  /** The lookup's path id (the other operations carry theirs in X-Request-Id). */
  lookupId: string;
}

let rowCount = 0;
export function headerRow(name = "", value = ""): HeaderRow {
  rowCount += 1;
  return { key: `row-${rowCount}`, name, value };
}

/** The inquiry form's values, as its run would send them. */
export interface FormRequest {
  operation: InquiryOperation;
  cardNumber: string;
  locationId: string;
  entryMode: string;
  pinMode: string;
  requestId: string;
}

/** The request the form would send: its headers (Authorization aside) and its JSON body, pretty-printed. */
export function draftFromForm(form: FormRequest): FreeFormDraft {
  const data = {
    entry_mode: form.entryMode.trim(),
    card_number: form.cardNumber.replace(/[\s-]/g, ""),
    pin_mode: form.pinMode.trim(),
    originator: { location_id: form.locationId.trim() },
  };
  const headers = [headerRow("Content-Type", "application/json"), headerRow("Accept", "application/json")];
  if (form.operation === "gift_balance_inquiry")
    headers.push(headerRow("X-Request-Id", form.requestId.trim() || newRequestId()));
  return { operation: form.operation, headers, body: JSON.stringify({ data }, null, 2), lookupId: "" };
}

export function draftFromCurl(curl: CurlRequest): FreeFormDraft {
  const lookup = curl.operation === "lookup_transaction";
  const headers = curl.headers
    .filter(([name]) => !(lookup && name.toLowerCase() === "x-request-id"))
    .map(([name, value]) => headerRow(name, value));
  if (curl.operation === "gift_balance_inquiry" && !headers.some(isRequestIdRow))
    headers.push(headerRow("X-Request-Id", newRequestId()));
  return {
    operation: curl.operation,
    headers,
    body: curl.body ?? "",
    lookupId: lookup ? (curl.requestId ?? "") : "",
  };
}

const isRequestIdRow = (row: HeaderRow) => row.name.trim().toLowerCase() === "x-request-id";

/** The editor's rows as the request's headers (blank rows left out); the last of a repeated name wins. */
function draftHeaders(draft: FreeFormDraft): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of draft.headers) if (row.name.trim()) headers[row.name.trim()] = row.value;
  return headers;
}

export function draftToInput(draft: FreeFormDraft): FreeFormRequestInput {
  const lookup = draft.operation === "lookup_transaction";
  return {
    operation: draft.operation,
    headers: draftHeaders(draft),
    ...(lookup ? { request_id: draft.lookupId.trim() } : { body: draft.body }),
  };
}

/** A masked card as history keeps it: 6 digits, stars, 4 digits. */
const MASKED_CARD = new RegExp(`\\d{6}\\${MASK_CHARACTER}+\\d{4}`, "g");

/** The masked cards in a recorded body: a replay needs each typed again. */
export function maskedCardsIn(body: string): string[] {
  return [...new Set(body.match(MASKED_CARD) ?? [])];
}

/**
 * A recorded free-form exchange sent again: its headers (the console's token aside) and body, with the card
 * typed again in place of its mask, and for a Gift Balance Inquiry a fresh Request Id unless `reuse`.
 */
export function replayInput(
  exchange: ExchangeRecord,
  options: { fullCard?: string | null; reuse: boolean },
): FreeFormRequestInput | null {
  const operation = asFreeFormOperation(exchange.operation);
  if (!operation) return null;
  const headers = Object.fromEntries(
    Object.entries(exchange.request.headers).filter(([name]) => name.toLowerCase() !== "authorization"),
  );
  if (operation === "lookup_transaction")
    return { operation, headers, request_id: exchange.request_id ?? "" };
  if (operation === "gift_balance_inquiry" && !options.reuse) {
    for (const name of Object.keys(headers)) if (name.toLowerCase() === "x-request-id") delete headers[name];
    headers["X-Request-Id"] = newRequestId();
  }
  let body = typeof exchange.request.body === "string" ? exchange.request.body : "";
  if (options.fullCard) body = body.replace(MASKED_CARD, options.fullCard);
  return { operation, headers, body };
}
