/**
 * Finds a certification client's secret in what its application sent, in the forms an application may send it
 * in, and removes those forms from what is kept. The server holds the secret itself (sealed) for the
 * certification's life, so the search is a fixed set of plain substring searches over bounded text: linear in
 * the text, with no hashing of candidate windows.
 *
 * Forms: raw; base64 standard or url-safe, padded or not, alone or inside a larger base64 value such as a Basic
 * credential (the secret's bytes encode the same at each of the three byte alignments, except at its edges);
 * hex in either case; and, after percent-decoding and JSON `\u` unescaping (all or some characters), any of
 * those again.
 */
import "server-only";
import { REDACTED } from "@/lib/shared/redaction";

export interface SecretForms {
  /** Case-sensitive literal forms (raw, base64 cores in the url-safe alphabet). */
  readonly literal: readonly string[];
  /** The hex form, lower-case (searched in lower-cased text). */
  readonly hex: string;
}

/** The base64 characters whose six bits all come from the secret, when it starts `offset` bytes into a group. */
function base64Core(secret: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), secret]).toString("base64url");
  const start = Math.ceil((8 * offset) / 6);
  const end = Math.floor((8 * (offset + secret.length)) / 6);
  return encoded.slice(start, end);
}

export function secretForms(secret: string): SecretForms {
  const bytes = Buffer.from(secret, "utf8");
  const cores = [0, 1, 2].map((offset) => base64Core(bytes, offset));
  return { literal: [...new Set([secret, ...cores])], hex: bytes.toString("hex") };
}

const ESCAPED = /%([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})/g;

/** Percent-encoded bytes and JSON `\u` escapes decoded, one pass; other text is left as it is. */
function unescapeText(text: string): string {
  if (!text.includes("%") && !text.includes("\\u")) return text;
  return text.replace(ESCAPED, (_match, percent?: string, unicode?: string) =>
    String.fromCharCode(parseInt(percent ?? unicode ?? "", 16)),
  );
}

/** The standard base64 alphabet's two extra characters as url-safe ones: one search covers both alphabets. */
const toUrlSafe = (text: string) =>
  text.includes("+") || text.includes("/") ? text.replace(/\+/g, "-").replace(/\//g, "_") : text;

function containsForm(text: string, forms: SecretForms): boolean {
  const urlSafe = toUrlSafe(text);
  if (forms.literal.some((form) => text.includes(form) || urlSafe.includes(form))) return true;
  return text.toLowerCase().includes(forms.hex);
}

export function containsSecret(text: string, forms: SecretForms): boolean {
  if (containsForm(text, forms)) return true;
  const unescaped = unescapeText(text);
  return unescaped !== text && containsForm(unescaped, forms);
}

function replaceForms(text: string, forms: SecretForms): string {
  let clean = text;
  for (const form of forms.literal) {
    if (clean.includes(form)) clean = clean.split(form).join(REDACTED);
    // The same bytes in the standard alphabet: replace where the url-safe copy matches.
    const standard = form.replace(/-/g, "+").replace(/_/g, "/");
    if (standard !== form && clean.includes(standard)) clean = clean.split(standard).join(REDACTED);
  }
  if (clean.toLowerCase().includes(forms.hex)) clean = clean.replace(new RegExp(forms.hex, "gi"), REDACTED);
  return clean;
}

/**
 * `text` without the secret in any form. When it is found only once escapes are decoded (a partly
 * percent-encoded or `\u`-escaped secret), the decoded text is kept, redacted: what was sent cannot be shown
 * without showing the secret.
 */
export function redactSecret(text: string, forms: SecretForms): string {
  const clean = replaceForms(text, forms);
  const unescaped = unescapeText(clean);
  return unescaped !== clean && containsForm(unescaped, forms) ? replaceForms(unescaped, forms) : clean;
}
