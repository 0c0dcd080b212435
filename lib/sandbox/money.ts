import { PURSES, type Purse, type PurseCents } from "./fixtures";

/** Integer cents → decimal string with two fraction digits ("25.00"). */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer amount of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  return `${sign}${Math.trunc(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

export function formatPurses(purses: PurseCents): Record<Purse, string> {
  return Object.fromEntries(PURSES.map((purse) => [purse, formatCents(purses[purse])])) as Record<
    Purse,
    string
  >;
}
