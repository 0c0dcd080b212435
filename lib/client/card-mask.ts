/**
 * Card-number masking for what the browser stores and exports: the server's own rule (lib/shared/masking.ts,
 * isomorphic), first 6 + last 4, plus the small helpers the client needs.
 */
export { maskCardNumber, maskCardNumbersInText } from "@/lib/shared/masking";
import { isCardNumber } from "@/lib/shared/card-number";

/** True when `masked` (e.g. 600649******0001) is the mask of `full`. */
export function matchesMask(masked: string, full: string): boolean {
  if (!isCardNumber(full) || masked.length !== full.length) return false;
  return [...masked].every((char, index) => char === "*" || char === full[index]);
}

/** "6006491000000001" or "600649******0001" → "0001". */
export function cardLast4(cardNumber: string): string {
  return cardNumber.slice(-4);
}
