/**
 * The audit log's HTTP shapes (docs/design.md §7): what `GET /api/audit` and `/api/audit/verify` answer. Shared by the
 * server that builds them (lib/server/audit/http.ts) and the page that reads them (components/audit). No secrets.
 */
import { z } from "zod";
import { isoTime } from "./contracts";

/** One audit row as JSON: the card is masked, never whole; `card_hash` is its keyed HMAC. */
const auditRowSchema = z.object({
  seq: z.number().int().positive(),
  at: isoTime,
  user_id: z.string().nullable(),
  roles: z.array(z.string()),
  client_address: z.string().nullable(),
  event: z.string(),
  environment: z.string().nullable(),
  operation: z.string().nullable(),
  card: z.string().nullable(),
  card_hash: z.string().nullable(),
  upstream_status: z.number().int().nullable(),
  request_id: z.string().nullable(),
  outcome: z.enum(["success", "failure"]),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditRowJson = z.infer<typeof auditRowSchema>;

/** `GET /api/audit`: one page of rows, newest first, and the cursor of the next (null: no more). */
export const auditPageSchema = z.object({
  rows: z.array(auditRowSchema),
  next_cursor: z.string().nullable(),
});
export type AuditPageJson = z.infer<typeof auditPageSchema>;

/** What `GET /api/audit/verify` checked: signed checkpoints, where the keyed chain starts, up to when. */
interface ChainCoverage {
  checkpoints?: number;
  last_checkpoint?: { seq: number; at: string; instance: string } | null;
  keyed_from?: number;
  through?: string | null;
  verified_at?: string;
  /** The first row this verify read: 1, or the row of the checkpoint it started from (`?from=checkpoint`). */
  walked_from?: number;
  started_at_checkpoint?: { seq: number; at: string; instance: string } | null;
}

/** `GET /api/audit/verify`. */
export type ChainVerdict = ChainCoverage &
  (
    | { ok: true; rows: number }
    | { ok: false; rows: number; first_bad_row: number | string | null; reason: string }
  );

/** `GET /api/audit/users`: user ids the log knows, in order; `more` when the search matched others too. */
export const auditUserListSchema = z.object({
  users: z.array(z.string()),
  more: z.boolean(),
});
export type AuditUserList = z.infer<typeof auditUserListSchema>;
