/**
 * Appends rows to the audit log. The chain head row is locked FOR UPDATE inside the transaction, so concurrent
 * writers (any number of processes on one PostgreSQL) take turns and form one unbroken chain. Within a process,
 * appends that arrive while a transaction is under way are written together in the next one (group commit):
 * a busy console pays one lock and one commit per batch, not per row. Each row is also one JSON line in the
 * server log, for a SIEM.
 */
import "server-only";
import { eq } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { auditChainHead, auditLog } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { rowHash, type AuditRow } from "./chain";
import { toAuditEntry, type AuditEntry, type AuditEntryInput } from "./entry";

/** Rows per transaction at most; the rest wait for the next one. */
const MAX_BATCH = 200;

interface Pending {
  entry: AuditEntry;
  time: Date;
  resolve: (row: AuditRow) => void;
  reject: (error: unknown) => void;
}

export type AuditAppender = (input: AuditEntryInput) => Promise<AuditRow>;

export function createAuditAppender(
  db: Database,
  hmacKey: string,
  now: () => Date = () => new Date(),
): AuditAppender {
  const queue: Pending[] = [];
  let writing = false;

  async function writeBatch(batch: Pending[]): Promise<AuditRow[]> {
    return db.transaction(async (tx) => {
      const [head] = await tx.select().from(auditChainHead).where(eq(auditChainHead.id, 1)).for("update");
      if (!head)
        throw new Error("The audit chain head is missing: the database migrations were not applied.");
      let seq = head.lastSeq;
      let prevHash = head.lastHash;
      const rows = batch.map(({ entry, time }) => {
        seq += 1;
        const fields = { ...entry, seq, time, prevHash };
        const row = { ...fields, rowHash: rowHash(fields) };
        prevHash = row.rowHash;
        return row;
      });
      await tx.insert(auditLog).values(rows);
      await tx
        .update(auditChainHead)
        .set({ lastSeq: seq, lastHash: prevHash })
        .where(eq(auditChainHead.id, 1));
      return rows;
    });
  }

  async function drain(): Promise<void> {
    writing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        try {
          const rows = await writeBatch(batch);
          rows.forEach((row, index) => {
            logger.info({ audit: auditLogLine(row) }, "audit");
            batch[index]!.resolve(row);
          });
        } catch (error) {
          for (const pending of batch) pending.reject(error);
        }
      }
    } finally {
      writing = false;
    }
  }

  return (input) => {
    let entry: AuditEntry;
    try {
      entry = toAuditEntry(input, hmacKey);
    } catch (error) {
      return Promise.reject(error);
    }
    // Milliseconds only, as stored (timestamp(3)), so the hash recomputed from the stored row matches.
    const time = new Date(now().getTime());
    return new Promise<AuditRow>((resolve, reject) => {
      queue.push({ entry, time, resolve, reject });
      if (!writing) void drain();
    });
  };
}

/** The server-log form: the row without its chain hashes (hex runs could read as card numbers to the log filter). */
function auditLogLine(row: AuditRow): Record<string, unknown> {
  const { prevHash: _prevHash, rowHash: _rowHash, time, ...rest } = row;
  return { ...rest, time: time.toISOString() };
}
