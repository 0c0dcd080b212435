/**
 * Turns one raw call the sandbox saw into what is kept: the facts the judge needs (computed from the raw call,
 * since redaction would hide a leaked secret) and the call itself, masked and redacted like every exchange. The
 * secret is known only by its SHA-256: it is found in a call by hashing each secret-shaped piece of text.
 */
import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ClientCallRecord, ClientStepId } from "@/lib/shared/client-certification-contract";
import { maskCardNumber } from "@/lib/shared/masking";
import { createRedactor } from "@/lib/shared/redaction";
import type { SandboxCall } from "@/lib/sandbox";
import type { CallFacts } from "./judge";

/** Secrets are 32 random bytes in base64url (see service.ts): 43 characters of this alphabet. */
const SECRET_LENGTH = 43;
const SECRET_ALPHABET_RUN = /[A-Za-z0-9_-]{43,}/g;

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

/** Every 43-character window of each run of the secret's alphabet: a secret glued to other text is found too. */
function secretShaped(text: string): string[] {
  const windows: string[] = [];
  for (const [run] of text.matchAll(SECRET_ALPHABET_RUN)) {
    for (let at = 0; at + SECRET_LENGTH <= run.length; at += 1)
      windows.push(run.slice(at, at + SECRET_LENGTH));
  }
  return windows;
}

/** Secret-shaped pieces of `text` whose SHA-256 is the secret's (also inside a Basic credential). */
function secretsIn(text: string, secretSha256: string): string[] {
  const candidates = secretShaped(text);
  const basic = /^Basic\s+(\S+)/i.exec(text)?.[1];
  if (basic) candidates.push(...secretShaped(Buffer.from(basic, "base64").toString("utf8")));
  return [...new Set(candidates.filter((candidate) => sha256Hex(candidate) === secretSha256))];
}

interface SecretScan {
  places: string[];
  values: string[];
}

function scanForSecret(call: SandboxCall, secretSha256: string): SecretScan {
  const places: string[] = [];
  const values: string[] = [];
  const look = (place: string, text: string | null) => {
    const found = text ? secretsIn(text, secretSha256) : [];
    if (found.length > 0) places.push(place);
    values.push(...found);
  };
  for (const [name, value] of Object.entries(call.request.headers)) look(`header ${name}`, value);
  look("query", new URL(call.request.url).search);
  look("body", call.request.body);
  return { places, values };
}

function malformed(call: SandboxCall, body: unknown): string[] {
  const problems: string[] = [];
  const headers = call.request.headers;
  const contentType = headers["content-type"] ?? "";
  const isJson = /^application\/json\s*(;|$)/i.test(contentType);
  if (call.operation === "token") {
    if (!isJson) problems.push(`Content-Type ${contentType || "(none)"}, not application/json`);
    if (!tokenBodySchema.safeParse(body).success)
      problems.push("the token body lacks client_id, client_secret or grant_type client_credentials");
    return problems;
  }
  if (!/^Bearer [^\s]+$/.test(headers.authorization ?? "")) problems.push("no Authorization: Bearer <token>");
  if (call.operation === "gift_balance_inquiry" || call.operation === "balance_inquiry") {
    if (!isJson) problems.push(`Content-Type ${contentType || "(none)"}, not application/json`);
    if (!cardBodySchema.safeParse(body).success) problems.push("the body is not the §2.3 card request body");
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

/** Headers the console's own proxy adds to every request it forwards (proxy.ts): not what the client sent. */
const ADDED_BY_CONSOLE = new Set(["x-nonce", "content-security-policy"]);

function sentHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !ADDED_BY_CONSOLE.has(name.toLowerCase())),
  );
}

export interface KeptCall {
  facts: CallFacts;
  record: ClientCallRecord;
}

/** The facts and the redacted record of one raw call. */
export function keepCall(received: SandboxCall, secretSha256: string, step: ClientStepId | null): KeptCall {
  const id = crypto.randomUUID();
  const call = {
    ...received,
    request: { ...received.request, headers: sentHeaders(received.request.headers) },
  };
  const requestBody = parseJson(call.request.body);
  const secret = scanForSecret(call, secretSha256);
  const requestId = call.request.headers["x-request-id"] ?? null;
  const facts: CallFacts = {
    id,
    step,
    operation: call.operation,
    started_ms: call.startedAtMs,
    ended_ms: call.startedAtMs + call.durationMs,
    status: call.response.status,
    behaviour: call.behaviour,
    request_id: requestId,
    lookup_id: lookupIdOf(call),
    card: cardOf(requestBody),
    body_sha256: requestBody === undefined ? null : sha256Hex(canonical(requestBody)),
    token_issued_at_ms: call.tokenIssuedAtMs,
    declined: isDeclined(call),
    secret_in:
      call.operation === "token" ? secret.places.filter((place) => place === "query") : secret.places,
    malformed: malformed(call, requestBody),
  };
  return { facts, record: redactedRecord(call, id, step, secret.values, requestBody) };
}

function redactedRecord(
  call: SandboxCall,
  id: string,
  step: ClientStepId | null,
  secrets: string[],
  requestBody: unknown,
): ClientCallRecord {
  const redactor = createRedactor(secrets);
  const url = new URL(call.request.url);
  const responseBody = parseJson(call.response.body);
  return {
    id,
    step,
    started_at: new Date(call.startedAtMs).toISOString(),
    duration_ms: call.durationMs,
    operation: call.operation,
    method: call.request.method,
    path: redactor.text(url.pathname),
    status: call.response.status,
    request_id: call.request.headers["x-request-id"]
      ? redactor.text(call.request.headers["x-request-id"])
      : null,
    behaviour: call.behaviour,
    request: {
      method: call.request.method,
      url: redactor.text(`${url.origin}${url.pathname}${url.search}`),
      headers: redactor.headers(call.request.headers),
      body: redactor.value(requestBody ?? call.request.body),
    },
    response: {
      status: call.response.status,
      headers: redactor.headers(call.response.headers),
      body: redactor.value(responseBody ?? call.response.body),
    },
  };
}
