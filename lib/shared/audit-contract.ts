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

const checkpointSchema = z.object({ seq: z.number().int(), at: isoTime, instance: z.string() });

/** What `GET /api/audit/verify` checked: signed checkpoints, where the keyed chain starts, up to when. */
const chainCoverageSchema = z.object({
  /** Valid signed checkpoints compared with the log (from the database and this instance's file). */
  checkpoints: z.number().int(),
  last_checkpoint: checkpointSchema.nullable(),
  /** The first row of the keyed chain; rows before it use the plain SHA-256 chain. */
  keyed_from: z.number().int(),
  /** Time of the last row checked (null for an empty log). */
  through: isoTime.nullable(),
  verified_at: isoTime,
  /** The first row this verify read: 1, or the row after the checkpoint it started from (`?from=checkpoint`). */
  walked_from: z.number().int(),
  /** The signed checkpoint the walk started from (rows up to it were found intact by an earlier walk). */
  started_at_checkpoint: checkpointSchema.nullable(),
});
export type ChainCoverage = z.infer<typeof chainCoverageSchema>;

/** `GET /api/audit/verify`: the chain intact, or the first row where it breaks and why. */
export const auditVerifySchema = z.union([
  chainCoverageSchema.extend({ ok: z.literal(true), rows: z.number().int() }),
  chainCoverageSchema.extend({
    ok: z.literal(false),
    rows: z.number().int(),
    first_bad_row: z.number().int(),
    reason: z.string(),
  }),
]);
export type ChainVerdict = z.infer<typeof auditVerifySchema>;

/** `GET /api/audit/users`: user ids the log knows, in order; `more` when the search matched others too. */
export const auditUserListSchema = z.object({
  users: z.array(z.string()),
  more: z.boolean(),
});
export type AuditUserList = z.infer<typeof auditUserListSchema>;
