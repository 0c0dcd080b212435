/**
 * The audit log's HTTP shapes (DESIGN.md §7): what `GET /api/audit` and `/api/audit/verify` answer. Shared by the
 * server that builds them (lib/server/audit/http.ts) and the page that reads them (components/audit). No secrets.
 */
import { z } from "zod";

/** One audit row as JSON: the card is masked, never whole; `card_hash` is its keyed HMAC. */
export interface AuditRowJson {
  seq: number;
  at: string;
  user_id: string | null;
  roles: string[];
  client_address: string | null;
  event: string;
  environment: string | null;
  operation: string | null;
  card: string | null;
  card_hash: string | null;
  upstream_status: number | null;
  request_id: string | null;
  outcome: "success" | "failure";
  reason: string | null;
  details: Record<string, string | number | boolean | null> | null;
}

/** `GET /api/audit`: one page of rows, newest first, and the cursor of the next (null: no more). */
export interface AuditPageJson {
  rows: AuditRowJson[];
  next_cursor: string | null;
}

/** What `GET /api/audit/verify` checked: signed checkpoints, where the keyed chain starts, up to when. */
export interface ChainCoverage {
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
