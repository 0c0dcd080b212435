/**
 * The support desk's HTTP interface (DESIGN.md §4, §9), shared by its route handlers and its page. Isomorphic:
 * nothing here holds a secret. No field ever carries a full card number, a token or a raw exchange.
 */
import { z } from "zod";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { Purse } from "@/lib/shared/purses";

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
export type SupportBatchInput = z.input<typeof supportBatchInputSchema>;
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
export const LOOKUP_OUTCOMES = [
  "found",
  "not_found",
  "rate_limited",
  "timeout",
  "unreachable",
  "upstream_error",
] as const;
export type LookupOutcome = (typeof LOOKUP_OUTCOMES)[number];

/** The card as the caller may see it: `last4` always; `masked` follows the caller's role (last 4 for support). */
export interface ShownCard {
  last4: string;
  masked: string;
}

export interface SupportLookupResult {
  card: ShownCard;
  environment: EnvironmentName;
  outcome: LookupOutcome;
  /** One sentence for the agent. */
  message: string;
  /** The eight purses (decimal strings) when `found`; null otherwise. */
  balances: Record<Purse, string> | null;
  upstream_status: number | null;
  retry_after_seconds: number | null;
  looked_up_at: string;
  duration_ms: number;
}

export const BATCH_STATUSES = ["queued", "running", "done", "cancelled"] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** `GET /api/support/batches/{id}` (and the 202 of `POST`). */
export interface SupportBatchProgress {
  id: string;
  status: BatchStatus;
  environment: EnvironmentName;
  total: number;
  /** Cards finished (found or not), failed included. */
  done: number;
  /** Cards whose lookup failed (not found, rate limited, timeout, upstream error). */
  failed: number;
  /** Cards that will not run (the batch was cancelled before them). */
  cancelled: number;
  /**
   * The same cards by outcome; these five always add up to `total`: `found` (balances answered), `not_found`
   * (no such card: a valid answer, counted in `failed` above), `errors` (no usable answer: timeout, rate limited,
   * upstream error), `cancelled`, and `in_flight` (waiting or being looked up; a cancelled batch's cards already
   * sent finish on their own).
   */
  found: number;
  not_found: number;
  errors: number;
  in_flight: number;
  /** Finished cards per second since the batch started; null before the first. */
  rate: number | null;
  /**
   * Seconds left at that rate; null when it cannot be known (nothing finished yet, or only cards already sent
   * remain: they end when the upstream answers or times out), 0 when nothing is left.
   */
  eta_seconds: number | null;
  reason: string | null;
  bad_lines: { line: number; message: string }[];
  bad_line_count: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at: string;
}

/** One card's result in `GET /api/support/batches/{id}/results` (masked). */
export interface SupportBatchResultRow {
  position: number;
  line: number;
  last4: string;
  card_hash: string;
  state: "pending" | "done" | "failed" | "cancelled";
  outcome: LookupOutcome | null;
  balances: Record<Purse, string> | null;
  error: string | null;
}

/** `?show=` of the results page: the cards of one outcome. `failed` means no usable answer, not "no such card". */
export const RESULT_FILTERS = ["found", "not_found", "failed", "cancelled", "in_flight"] as const;
export type ResultFilter = (typeof RESULT_FILTERS)[number];

export interface SupportBatchResults {
  rows: SupportBatchResultRow[];
  next_position: number | null;
}

/**
 * `GET /api/transactions/request-id/{id}` as the support role sees it: a summary, never the exchange record.
 * `not_found`: the upstream knows no transaction with this Request Id (a valid answer).
 */
export interface SupportTransactionLookup {
  request_id: string;
  environment: EnvironmentName;
  outcome: "found" | "not_found" | "upstream_error";
  upstream_status: number;
  looked_up_at: string;
  transaction: {
    transaction_id: string | null;
    /** The transaction's own timestamp as the upstream gave it. */
    time: string | null;
    card_last4: string | null;
    response_status: string | null;
    response_code: string | null;
    response_message: string | null;
    gift_balance: string | null;
  } | null;
}

/** One line of `GET /api/support/batches`: a batch's progress with who started it. */
export interface SupportBatchListItem extends Omit<SupportBatchProgress, "bad_lines"> {
  user_id: string;
}

export interface SupportBatchList {
  batches: SupportBatchListItem[];
}
