/**
 * The one card-number rule (API specification §2.3: a full card number is 12 to 19 digits), shared by the API's schema
 * (lib/shared/contracts.ts cardNumberSchema) and the browser's forms, which check it without zod.
 */
const CARD_NUMBER_DIGITS = { min: 12, max: 19 } as const;

export const CARD_NUMBER_PATTERN = new RegExp(`^\\d{${CARD_NUMBER_DIGITS.min},${CARD_NUMBER_DIGITS.max}}$`);

/** "12 to 19 digits", for messages and hints. */
export const CARD_NUMBER_RULE = `${CARD_NUMBER_DIGITS.min} to ${CARD_NUMBER_DIGITS.max} digits`;

export function isCardNumber(value: string): boolean {
  return CARD_NUMBER_PATTERN.test(value);
}

/** A card number as people type it, spaces and dashes between groups allowed, as the API takes it. */
export function normalizeCardNumber(typed: string): string {
  return typed.replace(/[\s-]/g, "");
}
