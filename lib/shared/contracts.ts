/**
 * The console's HTTP interface (docs/design.md §4), shared by route handlers (server) and pages (browser).
 * Isomorphic on purpose: nothing here may hold or import a secret.
 */
import { LOCATION_ID_MAX_LENGTH } from "./sandbox-demo";
import { z } from "zod";
import { CARD_NUMBER_PATTERN, CARD_NUMBER_RULE } from "./card-number";
import {
  bodyBytes,
  FREE_FORM_OPERATIONS,
  MAX_FREE_FORM_BODY_BYTES,
  MAX_FREE_FORM_HEADERS,
} from "./free-form";

export const ENVIRONMENTS = ["embedded", "sandbox", "production"] as const;
export type EnvironmentName = (typeof ENVIRONMENTS)[number];

/** Console roles (docs/design.md §6), granted through ROLE_GROUPS. */
export const ROLES = ["support", "engineer", "tester", "admin"] as const;
export type Role = (typeof ROLES)[number];

export { OPERATIONS, type OperationName } from "./operations";
import { OPERATIONS, pathSegmentProblem } from "./operations";

// ---------- request bodies ----------

/**
 * Printable ASCII only. The console sends these fields to the Card Services API as they are, and the
 * specification shows only ASCII values: other characters (accents, Cyrillic, emoji) could be changed or
 * refused upstream, so the message says so rather than blaming "printable characters".
 */
export const ASCII_ONLY_MESSAGE =
  "must use ASCII characters only (letters A–Z, digits, spaces and punctuation): the console sends it to " +
  "the Card Services API as typed, and the API's specification shows only ASCII values";

const printable = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x20-\x7E]+$/, ASCII_ONLY_MESSAGE);

// A JSON number loses digits past 2^53 and drops leading zeros: the number must be sent as a string.
export const cardNumberSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? "is required"
        : `must be a string (the digits in quotes), not a ${typeof issue.input}`,
  })
  .regex(CARD_NUMBER_PATTERN, `must be ${CARD_NUMBER_RULE}`);

export const credentialsInputSchema = z.union([
  z.object({ profile: z.literal("demo") }).strict(),
  z.object({ client_id: printable(200), client_secret: printable(500) }).strict(),
]);
export type CredentialsInput = z.infer<typeof credentialsInputSchema>;

export const environmentInputSchema = z.object({ environment: z.enum(ENVIRONMENTS) }).strict();

/**
 * The environment the page showed when the user ran it (docs/design.md §6): when another tab switched the
 * session's environment since, the call is refused with 409 `environment_changed`.
 */
export const expectedEnvironmentSchema = z.enum(ENVIRONMENTS).optional();

export const balanceInquiryInputSchema = z
  .object({
    card_number: cardNumberSchema,
    location_id: printable(LOCATION_ID_MAX_LENGTH),
    entry_mode: printable(32).default("keyed"),
    pin_mode: printable(32).default("none"),
    environment: expectedEnvironmentSchema,
  })
  .strict();
export type BalanceInquiryInput = z.input<typeof balanceInquiryInputSchema>;

/**
 * A Request Id as it goes into the lookup's path: one segment, never `.` or `..`, no `/` (operations.ts). A Gift
 * Balance Inquiry's is held to it too, so every transaction the console records can be looked up again.
 */
const requestIdSegment = printable(128).superRefine((value, context) => {
  const problem = pathSegmentProblem(value);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

export const giftBalanceInquiryInputSchema = balanceInquiryInputSchema
  .extend({ request_id: requestIdSegment.optional() })
  .strict();
export type GiftBalanceInquiryInput = z.input<typeof giftBalanceInquiryInputSchema>;

/**
 * `GET /api/transactions/request-id/{id}[?environment=…]`: the Request Id as a Gift Balance Inquiry accepts
 * it, as one path segment, and optionally the environment the page showed.
 */
export const transactionLookupParamsSchema = z
  .object({ id: requestIdSegment, environment: expectedEnvironmentSchema })
  .strict();

/** Line breaks and tabs, never other controls (a NUL cannot be stored) or a lone surrogate (no UTF-8 for it). */
const FREE_FORM_BODY =
  /^(?:[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/**
 * `POST /api/requests`: one card operation with the caller's headers and body (docs/design.md §4). Header names and
 * values are checked by lib/shared/free-form's rules in the route (400 `header_not_allowed` names the header).
 */
export const freeFormRequestInputSchema = z
  .object({
    operation: z.enum(FREE_FORM_OPERATIONS),
    environment: expectedEnvironmentSchema,
    headers: z
      .record(z.string().max(256), z.string().max(4096))
      .refine((headers) => Object.keys(headers).length <= MAX_FREE_FORM_HEADERS, {
        message: `at most ${MAX_FREE_FORM_HEADERS} headers`,
      })
      .optional(),
    body: z
      .string()
      .refine((body) => bodyBytes(body) <= MAX_FREE_FORM_BODY_BYTES, {
        message: `must be at most ${MAX_FREE_FORM_BODY_BYTES} bytes (UTF-8)`,
      })
      .refine((body) => FREE_FORM_BODY.test(body), {
        message: "may hold line breaks and tabs but no other control characters",
      })
      .optional(),
    request_id: printable(128).optional(),
  })
  .strict();
export type FreeFormRequestInput = z.input<typeof freeFormRequestInputSchema>;

// ---------- response bodies ----------
// One zod schema per shape: the OpenAPI document (lib/server/openapi) is generated from these, and the types
// are inferred from them, so the document and the code cannot drift apart.

/** An ISO 8601 time with its offset. */
export const isoTime = z.iso.datetime({ offset: true });
export const headersSchema = z.record(z.string(), z.string());
export const environmentNameSchema = z.enum(ENVIRONMENTS);

/**
 * An object with exactly these keys. Not `z.record(z.enum(keys), …)`: its JSON Schema requires keys it never
 * declares as properties, which strict validators refuse.
 */
export function keyedObject<K extends string, S extends z.ZodType>(keys: readonly K[], value: S) {
  return z.object(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, S>);
}

/** The one error shape of every console API error response; `details` per code: ./error-details.ts. */
export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const tokenMetadataSchema = z.object({
  token_type: z.string(),
  scopes: z.array(z.string()),
  expires_in: z.number(),
  issued_at: isoTime,
  expires_at: isoTime,
  /** First 12 hex characters of SHA-256 of the access token. */
  fingerprint: z.string().regex(/^[0-9a-f]{12}$/),
  header: z.record(z.string(), z.unknown()),
  claims: z.record(z.string(), z.unknown()),
  meta: z.record(z.string(), z.unknown()).nullable(),
  jsonapi: z.record(z.string(), z.unknown()).nullable(),
});
export type TokenMetadata = z.infer<typeof tokenMetadataSchema>;

const environmentInfoSchema = z.object({
  name: environmentNameSchema,
  /** Base address shown to the user (server configuration; informational only). */
  base_url: z.string(),
  auth_url: z.string(),
});
export type EnvironmentInfo = z.infer<typeof environmentInfoSchema>;

/** GET /api/session */
export const sessionInfoSchema = z.object({
  environment: environmentNameSchema,
  environments: z.array(environmentInfoSchema),
  credentials: z.object({
    source: z.enum(["server", "session", "none"]),
    client_id: z.string().nullable(),
    profile: z.literal("demo").optional(),
  }),
  token: tokenMetadataSchema.nullable(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** POST /api/auth/logout: the session has ended, and where the browser goes next (the provider's sign-out, or /signed-out). */
export const logoutResultSchema = z.object({ signed_out: z.literal(true), redirect: z.string() });
export type LogoutResult = z.infer<typeof logoutResultSchema>;

const tokenEventSchema = z.object({
  /**
   * `acquired`: no token in session, a first one was requested; `renewed_before_expiry`: the token was within
   * the renewal skew of expiry; `renewed_after_401`: upstream answered 401, a new token was fetched and the call
   * retried once; `requested`: asked for by the user ("Request token now"), not by a call.
   */
  type: z.enum(["acquired", "renewed_before_expiry", "renewed_after_401", "requested"]),
  at: isoTime,
  /** Fingerprint of the token obtained. */
  fingerprint: z.string(),
  /** One sentence for people, e.g. why the token was renewed. */
  detail: z.string().optional(),
});
export type TokenEvent = z.infer<typeof tokenEventSchema>;
export type TokenEventType = TokenEvent["type"];

/** Where the time of a run went, in milliseconds. */
const exchangeTimingsSchema = z.object({
  /** The whole console call, from request to record. */
  total_ms: z.number().nonnegative(),
  /** Obtaining tokens during this run (0 when the session's token was used). */
  token_ms: z.number().nonnegative(),
  /** The recorded upstream exchange (the same as `duration_ms`). */
  upstream_ms: z.number().nonnegative(),
  /** Earlier upstream attempts of this run (a 401 before the retry). */
  retried_ms: z.number().nonnegative().optional(),
});
export type ExchangeTimings = z.infer<typeof exchangeTimingsSchema>;

const nullableString = z.string().nullable();

/** What a Gift Balance Inquiry answered, or the transaction a lookup found (API specification §2.4); card number masked. */
const transactionSummaryFields = {
  transaction_id: nullableString,
  external_id: nullableString,
  card_number: nullableString,
  response_status: nullableString,
  response_code: nullableString,
  response_message: nullableString,
  balance: nullableString,
};

/**
 * The typed reading of a successful answer's body, so that pages never re-parse `response.body`. Built by the
 * server from the spec-checked body; fields are null only in summaries derived from records stored before it
 * existed or from answers that did not match the spec (lib/shared/exchange-summary.ts).
 */
const exchangeBodySummarySchema = z.discriminatedUnion("operation", [
  z.object({
    operation: z.literal("token"),
    token_type: nullableString,
    scopes: z.array(z.string()),
    expires_in: z.number().nullable(),
  }),
  z.object({ operation: z.literal("gift_balance_inquiry"), ...transactionSummaryFields }),
  z.object({ operation: z.literal("transaction_lookup"), found: z.boolean(), ...transactionSummaryFields }),
  z.object({
    operation: z.literal("balance_inquiry"),
    card_number: nullableString,
    balances: z.record(z.string(), z.string()).nullable(),
  }),
]);
export type ExchangeBodySummary = z.infer<typeof exchangeBodySummarySchema>;

/** An exchange's request as kept: an inquiry's, a certification's or a client certification's call. */
export const exchangeRequestSchema = z.object({
  method: z.string(),
  url: z.string(),
  /** Authorization and secrets redacted. */
  headers: headersSchema,
  /** Card number masked (first 6 + last 4); client_secret redacted. */
  body: z.unknown(),
  /** True when the body is kept as the text that was sent (a client certification's calls), not parsed. */
  body_is_text: z.boolean().optional(),
});

/** An exchange's response as kept. */
export const exchangeResponseSchema = z.object({
  status: z.number().int(),
  headers: headersSchema,
  /** Parsed JSON with card numbers masked, or the raw text when the body was not JSON. */
  body: z.unknown(),
  /** True when the body was not JSON. */
  body_is_text: z.boolean().optional(),
  /** Present when the body did not match the schema the spec describes; lists the issues. */
  schema_issues: z.array(z.string()).optional(),
});

/** What a run returns and what history keeps (docs/design.md §4). */
export const exchangeRecordSchema = z.object({
  id: z.string(),
  operation: z.enum(OPERATIONS),
  environment: environmentNameSchema,
  started_at: isoTime,
  duration_ms: z.number().nonnegative(),
  /** The X-Request-Id sent, for gift balance inquiries; the Request Id looked up, for transaction lookups. */
  request_id: z.string().optional(),
  request: exchangeRequestSchema,
  response: exchangeResponseSchema,
  token_events: z.array(tokenEventSchema),
  timings: exchangeTimingsSchema.optional(),
  /** Present when the answer succeeded and matched the spec's schema (absent in older stored records). */
  summary: exchangeBodySummarySchema.optional(),
  /**
   * A free-form request (`POST /api/requests`): `request.body` is the text sent (cards masked), whatever it
   * held, and `request.headers` what the caller chose plus the console's token.
   */
  free_form: z.boolean().optional(),
});
export type ExchangeRecord = z.infer<typeof exchangeRecordSchema>;

/**
 * POST /api/inquiries/{operation}: the exchange record and, alongside it, the session as GET /api/session would
 * now answer (the run may have acquired or renewed the token), so the page needs no second request.
 */
export const inquiryAnswerSchema = exchangeRecordSchema.extend({
  session: sessionInfoSchema.optional(),
});
export type InquiryAnswer = z.infer<typeof inquiryAnswerSchema>;

/** POST /api/token */
export const tokenResultSchema = z.object({
  token: tokenMetadataSchema.nullable(),
  exchange: exchangeRecordSchema,
});
export type TokenResult = z.infer<typeof tokenResultSchema>;
