/**
 * Appends one row to the audit log. The chain head row is locked FOR UPDATE inside the transaction, so
 * concurrent writers (any number of processes on one PostgreSQL) take turns and form one unbroken chain.
 * The same row is written as one JSON line to the server log, for a SIEM.
 */
import "server-only";
import { eq } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { auditChainHead, auditLog } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { rowHash, type AuditRow } from "./chain";
import { toAuditEntry, type AuditEntryInput } from "./entry";

export async function appendAuditRow(
  db: Database,
  hmacKey: string,
  input: AuditEntryInput,
  now: () => Date = () => new Date(),
): Promise<AuditRow> {
  const entry = toAuditEntry(input, hmacKey);
  const row = await db.transaction(async (tx) => {
    const [head] = await tx.select().from(auditChainHead).where(eq(auditChainHead.id, 1)).for("update");
    if (!head) throw new Error("The audit chain head is missing: the database migrations were not applied.");
    // Milliseconds only, as stored (timestamp(3)), so the hash recomputed from the stored row matches.
    const time = new Date(now().getTime());
    const fields = { ...entry, seq: head.lastSeq + 1, time, prevHash: head.lastHash };
    const hash = rowHash(fields);
    await tx.insert(auditLog).values({ ...fields, rowHash: hash });
    await tx
      .update(auditChainHead)
      .set({ lastSeq: fields.seq, lastHash: hash })
      .where(eq(auditChainHead.id, 1));
    return { ...fields, rowHash: hash };
  });
  logger.info({ audit: auditLogLine(row) }, "audit");
  return row;
}

/** The server-log form: the row without its chain hashes (hex runs could read as card numbers to the log filter). */
function auditLogLine(row: AuditRow): Record<string, unknown> {
  const { prevHash: _prevHash, rowHash: _rowHash, time, ...rest } = row;
  return { ...rest, time: time.toISOString() };
}
