/**
 * The one redaction rule of the console, for exchange records, error details, log lines
 * and what the browser keeps or exports. Isomorphic on purpose: no secrets live here and it imports
 * nothing server-only; the server passes the exact values it must hide (the session's client secret, its
 * current and previous access tokens) into `createRedactor`.
 *
 * Redacted: secret-named fields and headers (by key), anything shaped like a JWT or an iron seal (by form),
 * and the given values wherever they appear, under any key or inside any text (so an upstream that echoes
 * the secret under another name, or issues opaque non-JWT tokens, cannot leak them). Card numbers are
 * masked to first 6 + last 4 in the same pass.
 */
import { maskCardNumbersDeep, maskCardNumbersInJsonText, maskCardNumbersInText, setOwn } from "./masking";

export const REDACTED = "[REDACTED]";

/** Field and header names whose values are never shown (compared lower-case). */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-proxy-secret",
  "client_secret",
  "access_token",
  "refresh_token",
  "id_token",
  "password",
  "secret",
  "session_secret",
  "token",
]);

const JWT_LIKE = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const IRON_SEAL = /Fe26\.2\*[^\s"]+/g;
/** Shorter exact values would redact ordinary words; real secrets and tokens are longer. */
export const MIN_EXACT_SECRET_LENGTH = 6;
const MAX_DEPTH = 64;

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

export interface Redactor {
  /** Free text: JWTs, seals and the exact secrets removed, card numbers masked. */
  text(value: string): string;
  /** A JSON-like value, deep: secret-named fields redacted, every string cleaned, keys masked. */
  value(value: unknown): unknown;
  /** HTTP headers: Authorization keeps its scheme (`Bearer [REDACTED]`), other secret headers go whole. */
  headers(headers: Record<string, string>): Record<string, string>;
  /**
   * A body as a record keeps it: a value as `value` does; text that parses as JSON is judged by its parsed value
   * (every string decoded, `\u` escapes and all): the caller's text, cleaned, when it reads as exactly the cleaned
   * value, else the re-serialisation of the cleaned value; any other text cleaned as text, digit escapes included.
   */
  body(value: unknown): unknown;
}

/**
 * The forms a secret takes in an echo: itself, inside a JSON string, %-encoded, and base64 (padded, unpadded and
 * URL-safe): an upstream that repeats a token base64-encoded must not leak it either.
 */
function echoedForms(value: string): string[] {
  const forms = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)];
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  const unpadded = base64.replace(/=+$/, "");
  forms.push(base64, unpadded, unpadded.replace(/\+/g, "-").replace(/\//g, "_"));
  return forms;
}

/** Every echoed form of each secret long enough to look for, longest first (a token holding another goes whole). */
function exactForms(secrets: Iterable<string | undefined>): string[] {
  const given = [...new Set([...secrets].filter((secret): secret is string => !!secret))].filter(
    (secret) => secret.length >= MIN_EXACT_SECRET_LENGTH,
  );
  return [...new Set(given.flatMap(echoedForms))]
    .filter((form) => form.length >= MIN_EXACT_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/** An Authorization header keeps its scheme, never its credentials. */
function credentialsHidden(value: string): string {
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/** A redactor that also removes each of `secrets` (undefined and short values are ignored), in each echoed form. */
export function createRedactor(secrets: Iterable<string | undefined> = []): Redactor {
  const exact = exactForms(secrets);

  function text(value: string): string {
    let clean = value;
    for (const secret of exact) {
      if (clean.includes(secret)) clean = clean.split(secret).join(REDACTED);
    }
    if (clean.includes("eyJ")) clean = clean.replace(JWT_LIKE, REDACTED);
    if (clean.includes("Fe26.2*")) clean = clean.replace(IRON_SEAL, REDACTED);
    return maskCardNumbersInText(clean);
  }

  function walk(value: unknown, depth: number): unknown {
    if (typeof value === "string") return text(value);
    if (value === null || typeof value !== "object") return maskCardNumbersDeep(value);
    if (depth >= MAX_DEPTH) return "[too deep]";
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    // One pass over the keys, no entry arrays: every proxied call's record goes through here.
    const clean: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      setOwn(
        clean,
        text(key),
        isSecretKey(key) && item !== "" && item !== null ? REDACTED : walk(item, depth + 1),
      );
    }
    return clean;
  }

  function headers(input: Record<string, string>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(input).map(([name, raw]) => {
        const value = String(raw);
        const lower = name.toLowerCase();
        const credentials = lower === "authorization" || lower === "proxy-authorization";
        const shown = credentials ? credentialsHidden(value) : isSecretKey(lower) ? REDACTED : text(value);
        return [text(name), shown];
      }),
    );
  }

  function body(value: unknown): unknown {
    if (typeof value !== "string") return walk(value, 0);
    const cleanText = maskCardNumbersInJsonText(text(value));
    const parsed = parsedJson(value);
    if (parsed === undefined) return cleanText;
    // The caller's own text is kept when, read as JSON, it is exactly the cleaned value: nothing it hides differs.
    const clean = JSON.stringify(walk(parsed.value, 0));
    const kept = parsedJson(cleanText);
    if (
      kept !== undefined &&
      JSON.stringify(walk(kept.value, 0)) === clean &&
      JSON.stringify(kept.value) === clean
    ) {
      return cleanText;
    }
    return JSON.stringify(JSON.parse(clean), null, value.includes("\n") ? 2 : undefined);
  }

  return { text, value: (value) => walk(value, 0), headers, body };
}

/** The value of JSON text (an object, an array or a string; a bare number is kept as the text it is). */
function parsedJson(text: string): { value: unknown } | undefined {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[" && first !== '"') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** Redaction by key and form only, for code that knows no exact secret (the browser, imported files). */
export const defaultRedactor: Redactor = createRedactor();
