/**
 * Card number masking (first 6 + last 4), shared by the server (records, logs) and the browser (display,
 * history, exports). Isomorphic on purpose: no Node or browser APIs, no secrets.
 */

export const MASK_CHARACTER = "*";

/** `6006491000000001` → `600649******0001`. Anything that is not 12–19 digits is masked whole. */
export function maskCardNumber(cardNumber: string): string {
  if (!/^\d{12,19}$/.test(cardNumber)) return MASK_CHARACTER.repeat(Math.min(cardNumber.length, 19));
  return cardNumber.slice(0, 6) + MASK_CHARACTER.repeat(cardNumber.length - 10) + cardNumber.slice(-4);
}

/**
 * Finds card-like digit runs: 12 or more digits, written together or in groups separated by single spaces,
 * dashes, dots, slashes or underscores ("6006 4910 0000 0001", "6006.4910.0000.0001", "6006_4910…"). A run
 * longer than 19 digits is masked too: a card followed by another number ("ticket 6006491000000001 2024") is
 * one run, and no part of it may leave whole. Kept as they are, because they are not card numbers and masking
 * them would break lookups: canonical UUIDs (whose groups can be all digits), the spec's request ids
 * `req-<number>-<suffix>`, and dotted IPv4 addresses (four groups of at most 3 digits: a client address).
 */
const CARD_LIKE =
  /([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})|(\breq-\d+)|((?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?!\.?\d|[ /_-]\d))|(?<!\d[ ./_-]?)(\d(?:[ ./_-]?\d){11,})(?![ ./_-]?\d)/g;

/** A digit run of any length ≥ 12 masked: first 6 + last 4 for card lengths, only the last 4 for longer runs. */
function maskDigitRun(digits: string): string {
  if (digits.length <= 19) return maskCardNumber(digits);
  return MASK_CHARACTER.repeat(digits.length - 4) + digits.slice(-4);
}

const SEPARATORS = new Set([" ", ".", "/", "_", "-"].map((character) => character.charCodeAt(0)));

/**
 * Whether `text` holds 12 digits in a row (single separators allowed between them): without one, CARD_LIKE
 * masks nothing. A scan costs a fraction of the expression, and most text (log lines, headers) has no such run.
 */
function hasDigitRun(text: string): boolean {
  let digits = 0;
  let afterSeparator = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      digits += 1;
      afterSeparator = false;
      if (digits >= 12) return true;
    } else if (digits > 0 && !afterSeparator && SEPARATORS.has(code)) {
      afterSeparator = true;
    } else {
      digits = 0;
      afterSeparator = false;
    }
  }
  return false;
}

/**
 * Masks every card-like digit run in free text: reasons and tickets, batch reasons, details, upstream echoes.
 * The one rule for free text on its way into storage, logs and exports.
 */
export function maskCardNumbersInText(text: string): string {
  if (!hasDigitRun(text)) return text;
  return text.replace(
    CARD_LIKE,
    (match, _uuid?: string, _requestId?: string, _ipv4?: string, digits?: string) =>
      digits === undefined ? match : maskDigitRun(digits.replace(/[ ./_-]/g, "")),
  );
}

/** Returns a copy of any JSON-like value with every card-like digit run masked, in keys and in values. */
export function maskCardNumbersDeep<T>(value: T): T {
  return maskValue(value, 0) as T;
}

const MAX_DEPTH = 64;

function maskValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return maskCardNumbersInText(value);
  // A number can hold a card number too when an upstream sends it unquoted.
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) >= 1e11) {
    return maskCardNumbersInText(String(value));
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => maskValue(item, depth + 1));
  const masked: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    setOwn(masked, maskCardNumbersInText(key), maskValue((value as Record<string, unknown>)[key], depth + 1));
  return masked;
}

/** `target[key] = value` as an own property: a key such as "__proto__" stays a key, not a prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A masked card (first 6 + last 4) in text, reduced to its last 4 for pages that show no more (support). */
export function lastFourOnly(maskedText: string): string {
  return maskedText.replace(
    /\d{6}(\*{2,9}\d{4})(?!\d)/g,
    (_match, rest: string) => `${MASK_CHARACTER.repeat(6)}${rest}`,
  );
}
