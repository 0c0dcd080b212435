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
 * Finds card-like digit runs: 12 or more digits, written together or in groups separated by up to three spaces
 * (tabs, no-break spaces) or one dash, dot, slash or underscore ("6006 4910 0000 0001", "6006  4910  0000  0001",
 * "6006.4910.0000.0001", "6006_4910…"), or single digits listed with commas ("6,0,0,6,…"). A run longer than 19
 * digits is masked too: a card followed by another number ("ticket 6006491000000001 2024") is one run, and no part
 * of it may leave whole. Kept as they are, because they are not card numbers and masking them would break lookups:
 * canonical UUIDs (whose groups can be all digits), the spec's request ids `req-<number>-<suffix>`, and dotted IPv4
 * addresses (four groups of at most 3 digits: a client address). Commas separate single digits only: a list of
 * amounts ("10.00, 20.00, …") is not a card.
 */
const SEP = "(?:[ \\t\\u00a0]{1,3}|[./_-])";
const CARD_LIKE = new RegExp(
  [
    "([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})",
    "(\\breq-\\d+)",
    "((?<![\\d.])\\d{1,3}(?:\\.\\d{1,3}){3}(?!\\.?\\d|[ /_-]\\d))",
    `(?<!\\d${SEP}?)(\\d(?:${SEP}?\\d){11,})(?!${SEP}?\\d)`,
    "(?<![\\d,][ \\t]*)(\\d(?:[ \\t]*,[ \\t]*\\d){11,})(?![ \\t]*,?[ \\t]*\\d)",
  ].join("|"),
  "g",
);

/** A digit run of any length ≥ 12 masked: first 6 + last 4 for card lengths, only the last 4 for longer runs. */
function maskDigitRun(digits: string): string {
  if (digits.length <= 19) return maskCardNumber(digits);
  return MASK_CHARACTER.repeat(digits.length - 4) + digits.slice(-4);
}

const SEPARATORS = new Set([" ", "\t", "\u00a0", ".", "/", "_", "-", ","].map((text) => text.charCodeAt(0)));

/**
 * Whether `text` holds 12 digits with at most a few separator characters between each two: without one,
 * CARD_LIKE masks nothing. A scan costs a fraction of the expression, and most text (log lines, headers) has no
 * such run.
 */
function hasDigitRun(text: string): boolean {
  let digits = 0;
  let separators = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      digits += 1;
      separators = 0;
      if (digits >= 12) return true;
    } else if (digits > 0 && separators < 3 && SEPARATORS.has(code)) {
      separators += 1;
    } else {
      digits = 0;
      separators = 0;
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
    (match, _uuid?: string, _requestId?: string, _ipv4?: string, grouped?: string, listed?: string) => {
      const digits = grouped ?? listed;
      return digits === undefined ? match : maskDigitRun(digits.replace(/\D/g, ""));
    },
  );
}

/** A JSON escape of a digit (`\u0036` is "6"): how a card can be written in a JSON string without its digits. */
const DIGIT_ESCAPE = /\\u003([0-9])/gi;

/**
 * Text that may be JSON written by hand (a free-form request's body, an upstream's text answer): its card-like runs
 * masked as in free text, and also those written with `\u` escapes of digits, which the text shows decoded then.
 */
export function maskCardNumbersInJsonText(text: string): string {
  const masked = maskCardNumbersInText(text);
  if (!/\\u003[0-9]/i.test(masked)) return masked;
  const decoded = masked.replace(DIGIT_ESCAPE, "$1");
  const decodedMasked = maskCardNumbersInText(decoded);
  return decodedMasked === decoded ? masked : decodedMasked;
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
