/**
 * The console's HTTP interface (DESIGN.md §4), shared by route handlers (server) and pages (browser).
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

/** Console roles (DESIGN.md §6), granted through ROLE_GROUPS. */
export const ROLES = ["support", "engineer", "tester", "admin"] as const;
export type Role = (typeof ROLES)[number];

export { OPERATIONS, type OperationName } from "./operations";
import type { OperationName } from "./operations";

/** The one error shape of every console API error response; `details` per code: ./error-details.ts. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

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
 * The environment the page showed when the user ran it (DESIGN.md §6): when another tab switched the
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

export const giftBalanceInquiryInputSchema = balanceInquiryInputSchema
  .extend({ request_id: printable(128).optional() })
  .strict();
export type GiftBalanceInquiryInput = z.input<typeof giftBalanceInquiryInputSchema>;

/**
 * `GET /api/transactions/request-id/{id}[?environment=…]`: the Request Id as a Gift Balance Inquiry accepts
 * it, and optionally the environment the page showed.
 */
export const transactionLookupParamsSchema = z
  .object({ id: printable(128), environment: expectedEnvironmentSchema })
  .strict();

/** Line breaks and tabs, never other controls (a NUL cannot be stored) or a lone surrogate (no UTF-8 for it). */
const FREE_FORM_BODY =
  /^(?:[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/**
 * `POST /api/requests`: one card operation with the caller's headers and body (DESIGN.md §4). Header names and
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

export interface TokenMetadata {
  token_type: string;
  scopes: string[];
  expires_in: number;
  issued_at: string; // ISO
  expires_at: string; // ISO
  /** First 12 hex characters of SHA-256 of the access token. */
  fingerprint: string;
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  meta: Record<string, unknown> | null;
  jsonapi: Record<string, unknown> | null;
}

export interface EnvironmentInfo {
  name: EnvironmentName;
  /** Base address shown to the user (server configuration; informational only). */
  base_url: string;
  auth_url: string;
}

/** GET /api/session */
export interface SessionInfo {
  environment: EnvironmentName;
  environments: EnvironmentInfo[];
  credentials: { source: "server" | "session" | "none"; client_id: string | null; profile?: "demo" };
  token: TokenMetadata | null;
}

export type TokenEventType =
  | "acquired" // no token in session: a first one was requested
  | "renewed_before_expiry" // token was within the renewal skew of expiry
  | "renewed_after_401"; // upstream answered 401, a new token was fetched and the call retried once

export interface TokenEvent {
  type: TokenEventType;
  at: string; // ISO
  /** Fingerprint of the token obtained. */
  fingerprint: string;
  /** One sentence for people, e.g. why the token was renewed. */
  detail?: string;
}

/** Where the time of a run went, in milliseconds. */
export interface ExchangeTimings {
  /** The whole console call, from request to record. */
  total_ms: number;
  /** Obtaining tokens during this run (0 when the session's token was used). */
  token_ms: number;
  /** The recorded upstream exchange (the same as `duration_ms`). */
  upstream_ms: number;
  /** Earlier upstream attempts of this run (a 401 before the retry). */
  retried_ms?: number;
}

export interface ExchangeHttpRequest {
  method: string;
  url: string;
  /** Authorization and secrets redacted. */
  headers: Record<string, string>;
  /** Card number masked (first 6 + last 4); client_secret redacted. */
  body: unknown;
}

export interface ExchangeHttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON with card numbers masked, or the raw text when the body was not JSON. */
  body: unknown;
  /** True when the body was not JSON. */
  body_is_text?: boolean;
  /** Present when the body did not match the schema the spec describes; lists the issues. */
  schema_issues?: string[];
}

/** What a Gift Balance Inquiry answered, or the transaction a lookup found (spec §2.4); card number masked. */
export interface TransactionSummary {
  transaction_id: string | null;
  external_id: string | null;
  card_number: string | null;
  response_status: string | null;
  response_code: string | null;
  response_message: string | null;
  balance: string | null;
}

/**
 * The typed reading of a successful answer's body, so that pages never re-parse `response.body`. Built by the
 * server from the spec-checked body; fields are null only in summaries derived from records stored before it
 * existed or from answers that did not match the spec (lib/shared/exchange-summary.ts).
 */
export type ExchangeBodySummary =
  | { operation: "token"; token_type: string | null; scopes: string[]; expires_in: number | null }
  | ({ operation: "gift_balance_inquiry" } & TransactionSummary)
  | ({ operation: "transaction_lookup"; found: boolean } & TransactionSummary)
  | { operation: "balance_inquiry"; card_number: string | null; balances: Record<string, string> | null };

/** What a run returns and what history keeps (DESIGN.md §4). */
export interface ExchangeRecord {
  id: string;
  operation: OperationName;
  environment: EnvironmentName;
  started_at: string; // ISO
  duration_ms: number;
  /** The X-Request-Id sent, for gift balance inquiries; the Request Id looked up, for transaction lookups. */
  request_id?: string;
  request: ExchangeHttpRequest;
  response: ExchangeHttpResponse;
  token_events: TokenEvent[];
  timings?: ExchangeTimings;
  /** Present when the answer succeeded and matched the spec's schema (absent in older stored records). */
  summary?: ExchangeBodySummary;
  /**
   * A free-form request (`POST /api/requests`): `request.body` is the text sent (cards masked), whatever it
   * held, and `request.headers` what the caller chose plus the console's token.
   */
  free_form?: boolean;
}

/**
 * POST /api/inquiries/{operation}: the exchange record and, alongside it, the session as GET /api/session would
 * now answer (the run may have acquired or renewed the token), so the page needs no second request.
 */
export interface InquiryAnswer extends ExchangeRecord {
  session?: SessionInfo;
}

/** POST /api/token */
export interface TokenResult {
  token: TokenMetadata | null;
  exchange: ExchangeRecord;
}
