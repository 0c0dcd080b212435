/**
 * Card-number masking for what the browser stores and exports: first 6 + last 4 (the same rule as the
 * server). Everything the console keeps after entry goes through here.
 */

const FULL_CARD_NUMBER = /^\d{12,19}$/;
/** A run of 12–19 digits not inside a longer run of digits. */
const CARD_NUMBER_IN_TEXT = /(?<!\d)\d{12,19}(?!\d)/g;

export function maskCardNumber(cardNumber: string): string {
  const digits = cardNumber.replace(/\D/g, "");
  if (digits.length < 12) return "*".repeat(digits.length);
  return `${digits.slice(0, 6)}${"*".repeat(digits.length - 10)}${digits.slice(-4)}`;
}

export function isFullCardNumber(value: string): boolean {
  return FULL_CARD_NUMBER.test(value);
}

/** Masks every run of 12–19 digits in free text (e.g. a response body that was not JSON). */
export function maskCardNumbersInText(text: string): string {
  return text.replace(CARD_NUMBER_IN_TEXT, (digits) => maskCardNumber(digits));
}

/** "6006491000000001" or "600649******0001" → "0001". */
export function cardLast4(cardNumber: string): string {
  return cardNumber.slice(-4);
}
