/**
 * Card-number masking for what the browser stores and exports: the server's own rule (lib/masking.ts,
 * isomorphic), first 6 + last 4, plus the small helpers the client needs.
 */
export { maskCardNumber, maskCardNumbersInText } from "@/lib/masking";

const FULL_CARD_NUMBER = /^\d{12,19}$/;

export function isFullCardNumber(value: string): boolean {
  return FULL_CARD_NUMBER.test(value);
}

/** "6006491000000001" or "600649******0001" → "0001". */
export function cardLast4(cardNumber: string): string {
  return cardNumber.slice(-4);
}
