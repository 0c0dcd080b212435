/**
 * The specification's card request (API specification §2.3) and response shapes (API specification §2.2, §2.4, §2.5). Extra fields are allowed (the spec lists
 * what it shows, not everything an upstream may add); a missing or mistyped field is an issue that the
 * exchange record reports next to the body as it was. Shared: the sandbox's own OpenAPI document describes its
 * answers with them too.
 */
import { z } from "zod";
import { PURSES, type Purse } from "@/lib/shared/purses";

/**
 * What a kept token may hold: the session schema (lib/server/session) and the token response schemas below
 * share these bounds, so a token the console accepts is always one its session can store and read back.
 */
export const TOKEN_LIMITS = {
  accessTokenChars: 8192,
  tokenTypeChars: 64,
  scopeChars: 2048,
  /** One year: beyond it an upstream's expires_in is a schema issue (and dates would overflow). */
  expiresInSeconds: 31_536_000,
} as const;

const accessToken = z
  .string()
  .min(1)
  .max(TOKEN_LIMITS.accessTokenChars, `must be at most ${TOKEN_LIMITS.accessTokenChars} characters`);
const expiresIn = z
  .number()
  .positive()
  .max(TOKEN_LIMITS.expiresInSeconds, `must be at most ${TOKEN_LIMITS.expiresInSeconds} seconds (one year)`);
const scope = z
  .string()
  .max(TOKEN_LIMITS.scopeChars, `must be at most ${TOKEN_LIMITS.scopeChars} characters`);

const isoTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
const money = z.string().regex(/^-?\d+\.\d{2}$/, "must be a decimal string with two fraction digits");
const uuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID");

/** API specification §2.2: the token resource in its JSON:API envelope. */
export const tokenResponseSchema = z.object({
  data: z.object({
    type: z.literal("oauth-token"),
    attributes: z.object({
      access_token: accessToken,
      // Spelled out rather than /i: JSON Schema patterns (lib/server/openapi) carry no flags.
      token_type: z.string().regex(/^[Bb][Ee][Aa][Rr][Ee][Rr]$/, "must be Bearer"),
      expires_in: expiresIn.int(),
      scope,
    }),
  }),
  meta: z.object({
    timestamp: z.string().regex(/\.\d{3}Z$/, "must be an ISO 8601 UTC timestamp with milliseconds"),
    request_id: z.string().regex(/^req-\d+-\w+$/, "must be of the form req-<number>-<suffix>"),
    version: z.string().regex(/^\d+\.\d+\.\d+/, "must be a semantic version"),
  }),
  jsonapi: z.object({ version: z.string() }),
});

/** The least the console needs to use a token, when the full shape has issues. */
export const usableTokenSchema = z.object({
  data: z.object({
    attributes: z.object({
      access_token: accessToken,
      token_type: z.string().max(TOKEN_LIMITS.tokenTypeChars).optional(),
      expires_in: expiresIn,
      scope: scope.optional(),
    }),
  }),
  meta: z.record(z.string(), z.unknown()).optional(),
  jsonapi: z.record(z.string(), z.unknown()).optional(),
});

/** API specification §2.4: Gift Balance Inquiry, 201. */
export const giftBalanceResponseSchema = z.object({
  data: z.object({
    transaction_id: uuid,
    external_id: uuid,
    entry_mode: z.string(),
    card_number: z.string(),
    pin_mode: z.string(),
    pin_verification_result: z.string(),
    transaction_type: z.literal("gift_balance_inquiry"),
    response_status: z.enum(["approved", "declined"]),
    response_code: z.string(),
    response_message: z.string(),
    balance: money,
    originator: z.record(z.string(), z.unknown()),
    target: z.record(z.string(), z.unknown()),
    timestamp: z.string(),
  }),
});

/** API specification §2.5: Balance Inquiry, 200. */
export const balanceResponseSchema = z.object({
  data: z.object({
    card_number: z.string(),
    system_time: isoTimestamp,
    balances: z.object(
      Object.fromEntries(PURSES.map((purse) => [purse, money])) as Record<Purse, typeof money>,
    ),
  }),
});

/**
 * Lookup Transaction by Request Id, 200. The specification shows neither its path nor its body; the least
 * the console relies on is the transaction_id of the transaction found (the sandbox answers the recorded
 * Gift Balance Inquiry's data).
 */
export const transactionLookupResponseSchema = z.object({
  data: z.object({ transaction_id: uuid }),
});

export type TokenResponse = z.infer<typeof tokenResponseSchema>;
export type GiftBalanceResponse = z.infer<typeof giftBalanceResponseSchema>;
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;
export type TransactionLookupResponse = z.infer<typeof transactionLookupResponseSchema>;

const text = (field: string) =>
  z
    .string({ error: `${field} is required and must be a string` })
    .min(1, `${field} is empty`)
    .max(128, `${field} is longer than 128 characters`);

/** API specification §2.3: the body of both inquiries, with the sandbox's messages for what it refuses. */
export const cardRequestSchema = z.object(
  {
    data: z.object(
      {
        entry_mode: text("data.entry_mode"),
        card_number: z
          .string({ error: "data.card_number is required and must be a string" })
          .regex(/^\d{12,19}$/, "data.card_number must be 12 to 19 digits"),
        pin_mode: text("data.pin_mode"),
        // Other originator fields are not shown in the spec: kept and echoed as sent.
        originator: z.looseObject(
          { location_id: text("data.originator.location_id") },
          { error: "data.originator is required and must be an object" },
        ),
      },
      { error: "data is required and must be an object" },
    ),
  },
  { error: "the body must be a JSON object" },
);
export type CardRequest = z.infer<typeof cardRequestSchema>;
