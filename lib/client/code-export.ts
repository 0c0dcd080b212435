/**
 * "Copy as cURL" and "Copy as fetch" for an exchange record. The snippets replay the recorded request with
 * placeholders for what the browser never has: `$ACCESS_TOKEN` for the bearer token and `$CLIENT_SECRET`
 * for the client secret. The card number stays masked as recorded unless the caller passes the full number
 * the user typed (explicit opt-in), and then only if it matches the recorded mask.
 */
import type { ExchangeRecord } from "@/lib/api/contracts";

export interface CodeExportOptions {
  /** The full card number as the user typed it; used only when it matches the recorded masked number. */
  fullCardNumber?: string | null;
}

export const ACCESS_TOKEN_PLACEHOLDER = "$ACCESS_TOKEN";
export const CLIENT_SECRET_PLACEHOLDER = "$CLIENT_SECRET";

/** Stand-in written into the JSON text, then turned into each language's form of `$CLIENT_SECRET`. */
const SECRET_SENTINEL = "__console_placeholder_client_secret__";

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

/** True when `masked` (e.g. 600649******0001) is the mask of `full`. */
export function matchesMask(masked: string, full: string): boolean {
  if (!/^\d{12,19}$/.test(full) || masked.length !== full.length) return false;
  return [...masked].every((char, index) => char === "*" || char === full[index]);
}

function prepareBody(body: unknown, options: CodeExportOptions, key?: string): unknown {
  if (typeof body === "string") {
    if (key === "client_secret") return SECRET_SENTINEL;
    if (key === "card_number" && options.fullCardNumber && matchesMask(body, options.fullCardNumber)) {
      return options.fullCardNumber;
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

interface PreparedRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  /** JSON text (pretty) or raw text; null when the request had no body. */
  bodyText: string | null;
  bodyIsJson: boolean;
}

function prepareRequest(exchange: ExchangeRecord, options: CodeExportOptions): PreparedRequest {
  const { method, url, headers, body } = exchange.request;
  const prepared: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower)) continue;
    prepared.push(lower === "authorization" ? [name, `Bearer ${ACCESS_TOKEN_PLACEHOLDER}`] : [name, value]);
  }
  const needsBearer = exchange.operation !== "token";
  const hasAuthorization = prepared.some(([name]) => name.toLowerCase() === "authorization");
  // The record may lack the header (e.g. a call refused before sending); every inquiry needs it.
  if (needsBearer && !hasAuthorization)
    prepared.unshift(["Authorization", `Bearer ${ACCESS_TOKEN_PLACEHOLDER}`]);

  if (body === undefined || body === null || body === "") {
    return { method, url, headers: prepared, bodyText: null, bodyIsJson: false };
  }
  if (typeof body === "string") return { method, url, headers: prepared, bodyText: body, bodyIsJson: false };
  return {
    method,
    url,
    headers: prepared,
    bodyText: JSON.stringify(prepareBody(body, options), null, 2),
    bodyIsJson: true,
  };
}

/** Quotes a value for a POSIX shell: nothing inside single quotes is expanded. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A shell word for text that may contain the secret sentinel: quoted text joined with "$CLIENT_SECRET". */
function shellWordWithPlaceholders(text: string): string {
  return text
    .split(SECRET_SENTINEL)
    .map((part) => (part === "" ? "" : shellQuote(part)))
    .join(`"${CLIENT_SECRET_PLACEHOLDER}"`);
}

export function exchangeToCurl(exchange: ExchangeRecord, options: CodeExportOptions = {}): string {
  const request = prepareRequest(exchange, options);
  const lines = [`curl -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of request.headers) {
    // Double quotes only around the token placeholder, so that the shell expands $ACCESS_TOKEN.
    lines.push(
      value.includes(ACCESS_TOKEN_PLACEHOLDER) && name.toLowerCase() === "authorization"
        ? `  -H "${name}: Bearer ${ACCESS_TOKEN_PLACEHOLDER}"`
        : `  -H ${shellQuote(`${name}: ${value}`)}`,
    );
  }
  if (request.bodyText !== null) lines.push(`  --data-raw ${shellWordWithPlaceholders(request.bodyText)}`);
  return lines.join(" \\\n");
}

function indent(text: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return text
    .split("\n")
    .map((line, index) => (index === 0 ? line : pad + line))
    .join("\n");
}

export function exchangeToFetch(exchange: ExchangeRecord, options: CodeExportOptions = {}): string {
  const request = prepareRequest(exchange, options);
  const headerLines = request.headers.map(
    ([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`,
  );
  const lines = [
    `const response = await fetch(${JSON.stringify(request.url)}, {`,
    `  method: ${JSON.stringify(request.method)},`,
    `  headers: {`,
    ...headerLines,
    `  },`,
  ];
  if (request.bodyText !== null) {
    const withPlaceholder = request.bodyText.split(SECRET_SENTINEL).join(CLIENT_SECRET_PLACEHOLDER);
    lines.push(
      request.bodyIsJson
        ? `  body: JSON.stringify(${indent(withPlaceholder, 2)}),`
        : `  body: ${JSON.stringify(withPlaceholder)},`,
    );
  }
  lines.push(`});`, `console.log(response.status, await response.text());`);
  return lines.join("\n");
}
