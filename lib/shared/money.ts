/**
 * Amounts as the specification writes them (API specification §2.4, §2.5): decimal strings with two fraction digits.
 * The sandbox keeps integer cents and the pages compute in integer cents, so that no floating point ever
 * touches a balance. Isomorphic and dependency-free.
 */

/** Integer cents → decimal string with two fraction digits: 2500 → "25.00", -50 → "-0.50". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer amount of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  return `${sign}${Math.trunc(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}
