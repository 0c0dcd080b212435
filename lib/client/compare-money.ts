/**
 * Money and purse helpers for the compare and history views. Amounts travel as decimal strings with two
 * fraction digits (API specification §2.4, §2.5); they are turned into integer cents by string parsing so that no
 * floating point ever touches a balance.
 */

/** The purses of a Balance Inquiry response and their labels (API specification §2.5). */
export { PURSES as SPEC_PURSES, purseLabel } from "@/lib/shared/purses";
import { formatCents } from "@/lib/shared/money";

/** Exactly what the spec promises: an optional minus, digits, a point and two fraction digits. */
const SPEC_AMOUNT = /^-?\d+\.\d{2}$/;
/** What the console still understands as an amount, for a lenient upstream: "7", "7.5", "7.50". */
const LENIENT_AMOUNT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

export function isSpecAmount(value: unknown): value is string {
  return typeof value === "string" && SPEC_AMOUNT.test(value);
}

/** "25.00" → 2500, "-0.5" → -50; null for anything that is not a decimal amount string. */
export function parseAmountCents(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const match = LENIENT_AMOUNT.exec(value.trim());
  if (!match) return null;
  const [, sign = "", units = "0", fraction = ""] = match;
  const cents = Number(units) * 100 + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) return null;
  return sign === "-" && cents !== 0 ? -cents : cents;
}

export { formatCents };

/** A change with its sign always shown: +1.50, -0.25, ±0.00. */
export function formatDeltaCents(cents: number): string {
  if (cents === 0) return "±0.00";
  return cents > 0 ? `+${formatCents(cents)}` : formatCents(cents);
}
