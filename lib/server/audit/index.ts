/**
 * The audit log (DESIGN.md §7) bound to one database and HMAC key: append, verify, query, CSV export.
 * `now` is injectable for tests.
 */
import "server-only";
import type { Database } from "@/lib/server/database";
import { createAuditAppender } from "./append";
import { createCheckpointer, type CheckpointOptions } from "./checkpointer";
import { auditCsvLines, auditCsvStream } from "./csv";
import { toAuditEntry, type AuditEntryInput } from "./entry";
import { auditKeys } from "./keys";
import { queryAuditLog, type AuditQuery } from "./query";
import { verifyAuditChain } from "./verify";

export type { AuditRow } from "./chain";
export type { AuditEntryInput } from "./entry";
export type { AuditPage, AuditQuery } from "./query";
export type { VerifyResult } from "./verify";
export type { CheckpointOptions } from "./checkpointer";
export { checkpointFile } from "./checkpoint";
export { auditEntrySchema, cardHmac } from "./entry";
export { auditQuerySchema, MAX_PAGE_SIZE } from "./query";

export interface AuditLogOptions {
  db: Database;
  /** AUDIT_HMAC_KEY (see lib/server/util/generated-key.ts for a generated one). */
  hmacKey: string;
  now?: () => Date;
  /** Signed checkpoints of the chain head (the server always writes them; a test may leave them out). */
  checkpoints?: CheckpointOptions;
}

export function createAuditLog({ db, hmacKey, now = () => new Date(), checkpoints }: AuditLogOptions) {
  if (!hmacKey) throw new Error("The audit log needs an HMAC key (AUDIT_HMAC_KEY).");
  const keys = auditKeys(hmacKey);
  const checkpointer = checkpoints ? createCheckpointer(db, keys, checkpoints, now) : undefined;
  const append = createAuditAppender(db, hmacKey, now, checkpointer);
  return {
    /** Resolves once the row is committed. Use one audit log per process so that concurrent appends batch. */
    append: (entry: AuditEntryInput) => append(entry),
    /** The row as it would be stored (card masked and keyed), for the log when it cannot be written. */
    safeRow: (entry: AuditEntryInput) => toAuditEntry(entry, hmacKey),
    verify: () => verifyAuditChain(db, keys, checkpoints?.file),
    /** Signs a checkpoint of the chain head now (when it moved since this process's last one). */
    checkpoint: () => checkpointer?.checkpointNow() ?? Promise.resolve(),
    /** Stops the checkpoint timer after a last checkpoint (shutdown). */
    close: () => checkpointer?.close() ?? Promise.resolve(),
    query: (query: AuditQuery = {}) => queryAuditLog(db, hmacKey, query),
    csvLines: (filters: AuditQuery = {}) => auditCsvLines(db, hmacKey, filters),
    csvStream: (filters: AuditQuery = {}) => auditCsvStream(db, hmacKey, filters),
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
