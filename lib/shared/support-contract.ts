/**
 * The support desk's HTTP interface (docs/design.md §4, §9), shared by its route handlers and its page. Isomorphic:
 * nothing here holds a secret. No field ever carries a full card number, a token or a raw exchange.
 */
import { z } from "zod";
import { environmentNameSchema, isoTime, keyedObject } from "@/lib/shared/contracts";
import { PURSES, type Purse } from "@/lib/shared/purses";

/** A reason or ticket: optional, printable, kept in the audit log. */
const reasonSchema = z
  .string()
  .max(200)
  .regex(/^[^\u0000-\u001F\u007F-\u009F]*$/, "must not contain control characters")
  .transform((value) => value.trim())
  .optional();

/** `POST /api/support/lookups`. Strict: no operation, environment or location can be chosen by the body. */
export const supportLookupInputSchema = z
  .object({
    card_number: z
      .string()
      .max(40)
      .transform((value) => value.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(/^\d{12,19}$/, "must be 12 to 19 digits (spaces and dashes are allowed)")),
    reason: reasonSchema,
  })
  .strict();
export type SupportLookupInput = z.input<typeof supportLookupInputSchema>;

/** `POST /api/support/batches` as JSON: a list of card numbers, or CSV text (what a `text/csv` upload becomes). */
export const supportBatchInputSchema = z.union([
  z.object({ cards: z.array(z.string().max(64)).min(1), reason: reasonSchema }).strict(),
  z.object({ csv: z.string().min(1), reason: reasonSchema }).strict(),
]);
export type SupportBatchRequest = z.output<typeof supportBatchInputSchema>;

/**
 * What a lookup found:
 * - `found`: the upstream answered the eight purses (Balance Inquiry does not say whether a card is active:
 *   an inactive card answers its balances too);
 * - `not_found`: no card with this number (404);
 * - `rate_limited`: the upstream answered 429; `retry_after_seconds` says how long to wait;
 * - `timeout`, `unreachable`: the upstream did not answer in time / at all;
 * - `upstream_error`: any other answer (5xx, an unexpected status or a body not in the specification's form).
 */
const LOOKUP_OUTCOMES = [
  "found",
  "not_found",
  "rate_limited",
  "timeout",
  "unreachable",
  "upstream_error",
] as const;
export type LookupOutcome = (typeof LOOKUP_OUTCOMES)[number];

/** The eight purses (decimal strings) when the card was found; null otherwise. */
const balancesSchema = keyedObject<Purse, z.ZodString>(PURSES, z.string()).nullable();
const lookupOutcomeSchema = z.enum(LOOKUP_OUTCOMES);

export const supportLookupResultSchema = z.object({
  /** The card as the caller may see it: `last4` always; `masked` follows the caller's role (last 4 for support). */
  card: z.object({ last4: z.string().regex(/^\d{4}$/), masked: z.string() }),
  environment: environmentNameSchema,
  outcome: lookupOutcomeSchema,
  /** One sentence for the agent. */
  message: z.string(),
  balances: balancesSchema,
  upstream_status: z.number().int().nullable(),
  retry_after_seconds: z.number().nonnegative().nullable(),
  looked_up_at: isoTime,
  duration_ms: z.number().nonnegative(),
});
export type SupportLookupResult = z.infer<typeof supportLookupResultSchema>;
export type ShownCard = SupportLookupResult["card"];

const BATCH_STATUSES = ["queued", "running", "done", "cancelled"] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** `GET /api/support/batches/{id}` (and the 202 of `POST`). */
export const supportBatchProgressSchema = z.object({
  id: z.uuid(),
  status: z.enum(BATCH_STATUSES),
  environment: environmentNameSchema,
  total: z.number().int(),
  /** Cards finished (found or not), failed included. */
  done: z.number().int(),
  /** Cards whose lookup failed (not found, rate limited, timeout, upstream error). */
  failed: z.number().int(),
  /** Cards that will not run (the batch was cancelled before them). */
  cancelled: z.number().int(),
  /**
   * The same cards by outcome; these five always add up to `total`: `found` (balances answered), `not_found`
   * (no such card: a valid answer, counted in `failed` above), `errors` (no usable answer: timeout, rate limited,
   * upstream error), `cancelled`, and `in_flight` (waiting or being looked up; a cancelled batch's cards already
   * sent finish on their own).
   */
  found: z.number().int(),
  not_found: z.number().int(),
  errors: z.number().int(),
  in_flight: z.number().int(),
  /** Finished cards per second since the batch started; null before the first. */
  rate: z.number().nonnegative().nullable(),
  /**
   * Seconds left at that rate; null when it cannot be known (nothing finished yet, or only cards already sent
   * remain: they end when the upstream answers or times out), 0 when nothing is left.
   */
  eta_seconds: z.number().nonnegative().nullable(),
  reason: z.string().nullable(),
  bad_lines: z.array(z.object({ line: z.number().int(), message: z.string() })),
  bad_line_count: z.number().int(),
  /** The uploaded CSV's other columns by name (customer, note…), shown beside each card; empty without. */
  columns: z.array(z.string()),
  created_at: isoTime,
  started_at: isoTime.nullable(),
  finished_at: isoTime.nullable(),
  expires_at: isoTime,
});
export type SupportBatchProgress = z.infer<typeof supportBatchProgressSchema>;

/** One card's result in `GET /api/support/batches/{id}/results` (masked). */
const supportBatchResultRowSchema = z.object({
  position: z.number().int().nonnegative(),
  line: z.number().int(),
  last4: z.string(),
  card_hash: z.string(),
  state: z.enum(["pending", "done", "failed", "cancelled"]),
  outcome: lookupOutcomeSchema.nullable(),
  balances: balancesSchema,
  error: z.string().nullable(),
  /** The line's values of the batch's uploaded `columns` (customer, note…), card numbers as last 4 only. */
  extra: z.array(z.string()),
});
export type SupportBatchResultRow = z.infer<typeof supportBatchResultRowSchema>;

/** `?show=` of the results page: the cards of one outcome. `failed` means no usable answer, not "no such card". */
export const RESULT_FILTERS = ["found", "not_found", "failed", "cancelled", "in_flight"] as const;
export type ResultFilter = (typeof RESULT_FILTERS)[number];

export const supportBatchResultsSchema = z.object({
  rows: z.array(supportBatchResultRowSchema),
  next_position: z.number().int().nonnegative().nullable(),
});
export type SupportBatchResults = z.infer<typeof supportBatchResultsSchema>;

/**
 * `GET /api/transactions/request-id/{id}` as the support role sees it: a summary, never the exchange record.
 * `not_found`: the upstream knows no transaction with this Request Id (a valid answer).
 */
export const supportTransactionLookupSchema = z.object({
  request_id: z.string(),
  environment: environmentNameSchema,
  outcome: z.enum(["found", "not_found", "upstream_error"]),
  upstream_status: z.number().int(),
  looked_up_at: isoTime,
  transaction: z
    .object({
      transaction_id: z.string().nullable(),
      /** The transaction's own timestamp as the upstream gave it. */
      time: z.string().nullable(),
      card_last4: z.string().nullable(),
      response_status: z.string().nullable(),
      response_code: z.string().nullable(),
      response_message: z.string().nullable(),
      gift_balance: z.string().nullable(),
    })
    .nullable(),
});
export type SupportTransactionLookup = z.infer<typeof supportTransactionLookupSchema>;

/** `GET /api/support/batches`: each batch's progress with who started it. */
export const supportBatchListSchema = z.object({
  batches: z.array(supportBatchProgressSchema.omit({ bad_lines: true }).extend({ user_id: z.string() })),
});
export type SupportBatchList = z.infer<typeof supportBatchListSchema>;
export type SupportBatchListItem = SupportBatchList["batches"][number];
