/**
 * Turns one raw call the sandbox saw into what is kept: the facts the judge needs (computed from the raw call,
 * since redaction would hide a leaked secret) and the call itself, masked and redacted like every exchange, and
 * bounded: a kept call holds at most MAX_KEPT_HEADERS headers of MAX_KEPT_HEADER_CHARS each and MAX_KEPT_BODY
 * characters of each body, and says what it cut.
 */
import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ClientCallRecord, ClientStepId } from "@/lib/shared/client-certification-contract";
import { maskCardNumber } from "@/lib/shared/masking";
import { createRedactor, isSecretKey, REDACTED } from "@/lib/shared/redaction";
import type { SandboxCall } from "@/lib/sandbox";
import type { CallFacts } from "./judge";
import { NONCE_HEADER, securityHeaders } from "@/lib/server/http/security-headers";
import { PEER_ADDRESS_HEADER } from "@/lib/server/util/peer-address";
import { containsSecret, redactSecret, type SecretForms } from "./secret-forms";

export const MAX_KEPT_HEADERS = 50;
export const MAX_KEPT_HEADER_CHARS = 1024;
const MAX_KEPT_URL_CHARS = 2048;
export const MAX_KEPT_BODY = 16 * 1024;

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

const tokenBodySchema = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  grant_type: z.literal("client_credentials"),
});

const cardBodySchema = z.object({
  data: z.object({
    entry_mode: z.string().min(1),
    card_number: z.string().regex(/^\d{12,19}$/),
    pin_mode: z.string().min(1),
    originator: z.object({ location_id: z.string().min(1) }).loose(),
  }),
});

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON with object keys sorted: one request sent twice hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Where the secret was sent, in any of its forms (secret-forms.ts). */
function scanForSecret(call: SandboxCall, forms: SecretForms | null): string[] {
  if (!forms) return [];
  const places: string[] = [];
  const look = (place: string, text: string | null) => {
    if (text && containsSecret(text, forms)) places.push(place);
  };
  for (const [name, value] of Object.entries(call.request.headers)) look(`header ${name}`, value);
  const url = new URL(call.request.url);
  look("path", url.pathname);
  look("query", url.search);
  look("body", call.request.body);
  return places;
}

/**
 * The specification's JSON token request, or the OAuth 2.0 form of the same grant (credentials in the form or in
 * Basic), which the sandbox authenticates alike (docs/design.md §5).
 */
function malformedToken(call: SandboxCall, contentType: string, isJson: boolean, body: unknown): string[] {
  if (/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    const form = new URLSearchParams(call.request.body ?? "");
    const basic = /^Basic\s+\S+$/i.test(call.request.headers.authorization ?? "");
    const credentials = basic || (!!form.get("client_id") && !!form.get("client_secret"));
    return form.get("grant_type") === "client_credentials" && credentials
      ? []
      : ["the token form lacks grant_type client_credentials or the client's credentials"];
  }
  const problems: string[] = [];
  if (!isJson) problems.push(`Content-Type ${contentType || "(none)"}, not application/json`);
  if (!tokenBodySchema.safeParse(body).success)
    problems.push("the token body lacks client_id, client_secret or grant_type client_credentials");
  return problems;
}

function malformed(call: SandboxCall, body: unknown): string[] {
  const problems: string[] = [];
  const headers = call.request.headers;
  const contentType = headers["content-type"] ?? "";
  const isJson = /^application\/json\s*(;|$)/i.test(contentType);
  if (call.operation === "token") return malformedToken(call, contentType, isJson, body);
  if (!/^Bearer [^\s]+$/.test(headers.authorization ?? "")) problems.push("no Authorization: Bearer <token>");
  if (call.operation === "gift_balance_inquiry" || call.operation === "balance_inquiry") {
    if (!isJson) problems.push(`Content-Type ${contentType || "(none)"}, not application/json`);
    if (!cardBodySchema.safeParse(body).success)
      problems.push("the body is not the card request body of API specification §2.3");
  }
  return problems;
}

function lookupIdOf(call: SandboxCall): string | null {
  if (call.operation !== "transaction_lookup") return null;
  const last = new URL(call.request.url).pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function cardOf(body: unknown): string | null {
  const parsed = cardBodySchema.safeParse(body);
  return parsed.success ? maskCardNumber(parsed.data.data.card_number) : null;
}

function isDeclined(call: SandboxCall): boolean {
  if (call.operation !== "gift_balance_inquiry" || call.response.status !== 201) return false;
  const body = parseJson(call.response.body) as { data?: { response_status?: unknown } } | undefined;
  return body?.data?.response_status === "declined";
}

/**
 * Request headers that reach the sandbox's route without the application having sent them: the forwarding
 * headers of a proxy in front of the console or of Next itself, the peer address scripts/serve.mjs writes, and
 * what proxy.ts adds (the nonce, and its response headers, which Next copies onto the request as well).
 */
const NOT_SENT = new Set([
  "forwarded",
  "x-real-ip",
  "via",
  PEER_ADDRESS_HEADER,
  NONCE_HEADER,
  ...Object.keys(securityHeaders("", { secure: true, dev: false })).map((name) => name.toLowerCase()),
]);

function sentHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => {
      const lower = name.toLowerCase();
      return !NOT_SENT.has(lower) && !lower.startsWith("x-forwarded-");
    }),
  );
}

export interface KeptCall {
  facts: CallFacts;
  record: ClientCallRecord;
}

/** The facts and the redacted, bounded record of one raw call; `forms` are the client secret's (null: unknown). */
export function keepCall(
  received: SandboxCall,
  forms: SecretForms | null,
  step: ClientStepId | null,
): KeptCall {
  const id = crypto.randomUUID();
  const call = {
    ...received,
    request: { ...received.request, headers: sentHeaders(received.request.headers) },
  };
  const requestBody = parseJson(call.request.body);
  const secretIn = scanForSecret(call, forms);
  // Compared between calls, never shown: a bounded prefix tells real Request Ids apart.
  const requestId = call.request.headers["x-request-id"]?.slice(0, 256) ?? null;
  const facts: CallFacts = {
    id,
    step,
    operation: call.operation,
    started_ms: call.startedAtMs,
    ended_ms: call.startedAtMs + call.durationMs,
    status: call.response.status,
    behaviour: call.behaviour,
    request_id: requestId,
    lookup_id: lookupIdOf(call)?.slice(0, 256) ?? null,
    card: cardOf(requestBody),
    body_sha256: requestBody === undefined ? null : sha256Hex(canonical(requestBody)),
    token_issued_at_ms: call.tokenIssuedAtMs,
    declined: isDeclined(call),
    // A token request carries the secret by design; only in its address would it be logged on the way.
    secret_in:
      call.operation === "token"
        ? secretIn.filter((place) => place === "query" || place === "path")
        : secretIn,
    malformed: malformed(call, requestBody),
    plan_id: call.plan?.planId ?? null,
    kind_seq: call.plan?.seq ?? null,
    fault: call.plan?.family ?? null,
    retry_after_ms: retryAfterMs(call.response.headers["retry-after"], answeredAt(call)),
  };
  // A revoking fault is the docs/design.md §11 revoked step's 401 on one call: the renewal check reads it so.
  if (facts.fault === "status_401") facts.behaviour = "revoked";
  const record = redactedRecord(call, id, step, forms);
  const planned = call.plan
    ? { plan_id: call.plan.planId, kind_seq: call.plan.seq, fault: call.plan.family }
    : {};
  return { facts, record: { ...record, ...planned } };
}

const answeredAt = (call: SandboxCall) => call.startedAtMs + call.durationMs;

/** Retry-After as ms from the answer: delay-seconds, or an HTTP-date made relative (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | undefined, answeredAtMs: number): number | null {
  if (value === undefined) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - answeredAtMs);
}

/** Header list cut to MAX_KEPT_HEADERS entries of MAX_KEPT_HEADER_CHARS each; true when anything was cut. */
function boundedHeaders(headers: Record<string, string>): [Record<string, string>, boolean] {
  const entries = Object.entries(headers);
  let cut = entries.length > MAX_KEPT_HEADERS;
  const kept = entries.slice(0, MAX_KEPT_HEADERS).map(([name, value]): [string, string] => {
    if (name.length + value.length <= MAX_KEPT_HEADER_CHARS) return [name, value];
    cut = true;
    return [name.slice(0, 128), value.slice(0, MAX_KEPT_HEADER_CHARS)];
  });
  return [Object.fromEntries(kept), cut];
}

interface Cleaners {
  text(value: string): string;
  forms: SecretForms | null;
}

/** A body as kept: parsed JSON when it fits, else its redacted text cut to MAX_KEPT_BODY characters. */
function keptBody(
  raw: string | null,
  clean: Cleaners,
  value: (parsed: unknown) => unknown,
): [unknown, boolean] {
  if (raw === null) return [null, false];
  const text = clean.forms ? redactSecret(raw, clean.forms) : raw;
  if (text.length > MAX_KEPT_BODY) return [clean.text(text).slice(0, MAX_KEPT_BODY), true];
  const parsed = parseJson(text);
  return [value(parsed ?? text), false];
}

/** A JSON string, number or boolean under a key (the key as written, then its value). */
const JSON_FIELD = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false)/g;
const FORM_FIELD = /(^|&)([^=&]*)=([^&]*)/g;

function decodedKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, " "));
  } catch {
    return key;
  }
}

/** True when a secret-named field of the parsed body still holds something (a value the patterns missed). */
function holdsSecretField(value: unknown, depth = 0): boolean {
  if (!value || typeof value !== "object" || depth > 64) return false;
  return Object.entries(value).some(
    ([key, item]) =>
      (isSecretKey(key) && item !== "" && item !== null && item !== REDACTED) ||
      holdsSecretField(item, depth + 1),
  );
}

/**
 * The request body as the application sent it, character for character: the secret's forms and secret-named
 * fields (JSON or form) replaced in place, card numbers masked. Only a body whose secret field the patterns
 * cannot reach in place (an object under "password", say) is shown re-serialised, redacted.
 */
function keptRequestBody(
  raw: string | null,
  clean: Cleaners,
  value: (parsed: unknown) => unknown,
): [string | null, boolean] {
  if (raw === null) return [null, false];
  let text = clean.forms ? redactSecret(raw, clean.forms) : raw;
  const parsed = parseJson(text);
  if (parsed === undefined) {
    text = text.replace(FORM_FIELD, (whole, start: string, key: string, field: string) =>
      isSecretKey(decodedKey(key)) && field !== "" ? `${start}${key}=${REDACTED}` : whole,
    );
  } else {
    text = text.replace(JSON_FIELD, (whole, key: string, colon: string, field: string) =>
      isSecretKey(decodedKey(key)) && field !== '""' ? `"${key}"${colon}"${REDACTED}"` : whole,
    );
    if (holdsSecretField(parseJson(text))) text = JSON.stringify(value(parsed));
  }
  text = clean.text(text);
  return text.length > MAX_KEPT_BODY ? [text.slice(0, MAX_KEPT_BODY), true] : [text, false];
}

function redactedRecord(
  call: SandboxCall,
  id: string,
  step: ClientStepId | null,
  forms: SecretForms | null,
): ClientCallRecord {
  const redactor = createRedactor(forms ? forms.literal : []);
  const text = (value: string) => redactor.text(forms ? redactSecret(value, forms) : value);
  const cleaners: Cleaners = { text, forms };
  const url = new URL(call.request.url);
  const [requestHeaders, requestHeadersCut] = boundedHeaders(call.request.headers);
  const [responseHeaders, responseHeadersCut] = boundedHeaders(call.response.headers);
  const secretFree = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, text(value)]));
  const [requestBody, requestBodyCut] = keptRequestBody(call.request.body, cleaners, redactor.value);
  const [responseBody, responseBodyCut] = keptBody(call.response.body, cleaners, redactor.value);
  const fullUrl = `${url.origin}${url.pathname}${url.search}`;
  const truncated = [
    ...(requestHeadersCut ? ["request headers"] : []),
    ...(fullUrl.length > MAX_KEPT_URL_CHARS ? ["request url"] : []),
    ...(requestBodyCut ? ["request body"] : []),
    ...(responseHeadersCut ? ["response headers"] : []),
    ...(responseBodyCut ? ["response body"] : []),
  ];
  const requestId = call.request.headers["x-request-id"];
  return {
    id,
    step,
    started_at: new Date(call.startedAtMs).toISOString(),
    duration_ms: call.durationMs,
    operation: call.operation,
    method: call.request.method,
    path: text(url.pathname).slice(0, MAX_KEPT_URL_CHARS),
    status: call.response.status,
    request_id: requestId ? text(requestId).slice(0, MAX_KEPT_HEADER_CHARS) : null,
    behaviour: call.behaviour,
    request: {
      method: call.request.method,
      url: text(fullUrl).slice(0, MAX_KEPT_URL_CHARS),
      headers: redactor.headers(secretFree(requestHeaders)),
      body: requestBody,
      ...(requestBody === null ? {} : { body_is_text: true }),
    },
    response: {
      status: call.response.status,
      headers: redactor.headers(secretFree(responseHeaders)),
      body: responseBody,
    },
    ...(truncated.length > 0 ? { truncated } : {}),
  };
}
