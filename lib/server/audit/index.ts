/**
 * The audit log (docs/design.md §7) bound to one database and HMAC key: append, verify, query, CSV export.
 * `now` is injectable for tests. Verify and export load their modules on first use: every route appends, only
 * the audit page's routes read.
 */
import "server-only";
import type { Database } from "@/lib/server/database";
import { createAuditAppender } from "./append";
import { createCheckpointer, type CheckpointOptions } from "./checkpointer";
import { toAuditEntry, type AuditEntryInput } from "./entry";
import { markKeyedStart } from "./keyed-start";
import { auditKeys } from "./keys";
import { listAuditUsers, queryAuditLog, type AuditQuery, type AuditUsersQuery } from "./query";
import type { VerifiedAnchor, VerifyFrom } from "./verify";

export type { AuditRow } from "./chain";
export type { AuditEntryInput } from "./entry";
export type { AuditQuery } from "./query";
export type { VerifyFrom } from "./verify";
export { checkpointFile } from "./checkpoint";
export { KEYED_CHAIN_MIGRATION } from "./keyed-start";
export { cardHmac } from "./entry";
export { auditUsersQuerySchema } from "./query";

export interface AuditLogOptions {
  db: Database;
  /** AUDIT_HMAC_KEY (see lib/server/util/generated-key.ts for a generated one). */
  hmacKey: string;
  now?: () => Date;
  /** Signed checkpoints of the chain head (the server always writes them; a test may leave them out). */
  checkpoints?: CheckpointOptions;
  /** Told the size of every committed batch: one statement each (metrics, the bench). */
  onBatch?: (rows: number) => void;
}

export function createAuditLog({
  db,
  hmacKey,
  now = () => new Date(),
  checkpoints,
  onBatch,
}: AuditLogOptions) {
  if (!hmacKey) throw new Error("The audit log needs an HMAC key (AUDIT_HMAC_KEY).");
  const keys = auditKeys(hmacKey);
  const checkpointer = checkpoints ? createCheckpointer(db, keys, checkpoints, now) : undefined;
  const append = createAuditAppender(db, hmacKey, now, checkpointer, onBatch);
  const verified: VerifiedAnchor = { current: null };
  return {
    /** Resolves once the row is committed. Use one audit log per process so that concurrent appends batch. */
    append: (entry: AuditEntryInput) => append(entry),
    /** The row as it would be stored (card masked and keyed), for the log when it cannot be written. */
    safeRow: (entry: AuditEntryInput) => toAuditEntry(entry, hmacKey),
    /** The whole chain; `from: "checkpoint"` starts at the last checkpoint an earlier verify found intact. */
    verify: async (from: VerifyFrom = "start") =>
      (await import("@/lib/server/audit/verify")).verifyAuditChain(db, keys, {
        checkpointFile: checkpoints?.file,
        from,
        verified,
      }),
    /** After the migration to the keyed chain only: the first keyed row after the plain rows (./keyed-start). */
    markKeyedStart: () => markKeyedStart(db, append),
    /** Signs a checkpoint of the chain head now (when it moved since this process's last one). */
    checkpoint: () => checkpointer?.checkpointNow() ?? Promise.resolve(),
    /** Stops the checkpoint timer after a last checkpoint (shutdown). */
    close: () => checkpointer?.close() ?? Promise.resolve(),
    query: (query: AuditQuery = {}) => queryAuditLog(db, hmacKey, query),
    /** The user ids the log knows, searched (the audit page's User filter). */
    users: (query: AuditUsersQuery = {}) => listAuditUsers(db, query),
    csvLines: async function* (filters: AuditQuery = {}): AsyncGenerator<string> {
      yield* (await import("@/lib/server/audit/csv")).auditCsvLines(db, hmacKey, filters);
    },
    csvStream: (filters: AuditQuery = {}) =>
      openedOnRead(async () => (await import("@/lib/server/audit/csv")).auditCsvStream(db, hmacKey, filters)),
  };
}

/** A stream that opens `open()`'s on its first read (a response body is read once its headers are sent). */
function openedOnRead(open: () => Promise<ReadableStream<Uint8Array>>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      reader ??= (await open()).getReader();
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}

export type AuditLog = ReturnType<typeof createAuditLog>;
