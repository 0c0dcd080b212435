/**
 * The test cards offered beside the card field (GET /api/test-cards, GET /api/test-cards/{id}): listed masked,
 * each full number fetched only when a user chooses it, so that no page carries one.
 */
import { z } from "zod";
import { environmentNameSchema } from "./contracts";

const TEST_CARD_BEHAVIOURS = [
  "active",
  "inactive",
  "declined",
  "server_error",
  "slow",
  "not_json",
  "rate_limited",
] as const;

export const testCardIdSchema = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, "is not a test card id");

const testCardSchema = z
  .object({
    id: testCardIdSchema,
    /** What the card does, in a few words ("inactive: declined"). */
    label: z.string(),
    behaviour: z.enum(TEST_CARD_BEHAVIOURS),
    /** First 6 + last 4. */
    masked: z.string(),
  })
  .strict();
export type TestCardEntry = z.infer<typeof testCardSchema>;

export const testCardListSchema = z.object({ cards: z.array(testCardSchema) }).strict();
export type TestCardList = z.infer<typeof testCardListSchema>;

export const testCardNumberSchema = z.object({ card_number: z.string() }).strict();
export type TestCardNumber = z.infer<typeof testCardNumberSchema>;

/** `?environment=`: absent means the session's. */
export const testCardQuerySchema = z.object({ environment: environmentNameSchema.optional() }).strict();
