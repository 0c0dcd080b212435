/**
 * Walks the chain in sequence order, in batches (any number of rows, bounded memory), and reports the first row
 * where it breaks: a row whose content no longer matches its hash (edited), a row whose previous-hash does not
 * match the row before it, a gap in the sequence (deleted rows), or rows missing at the end (per the chain head).
 */
import "server-only";
import { and, asc, eq, gt, lte } from "drizzle-orm";
import type { Database } from "@/lib/server/db";
import { auditChainHead, auditLog } from "@/lib/server/db/schema";
import { GENESIS_HASH, rowHash, type AuditRow } from "./chain";

export type VerifyResult =
  { ok: true; rows: number } | { ok: false; rows: number; first_bad_row: number; reason: string };

const BATCH = 1000;

export async function verifyAuditChain(db: Database): Promise<VerifyResult> {
  // The head first: rows appended while we walk lie beyond it and are left for the next verification.
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  if (!head) return { ok: false, rows: 0, first_bad_row: 1, reason: "the audit chain head row is missing" };
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  for (;;) {
    const batch = (await db
      .select()
      .from(auditLog)
      .where(and(gt(auditLog.seq, expectedSeq - 1), lte(auditLog.seq, head.lastSeq)))
      .orderBy(asc(auditLog.seq))
      .limit(BATCH)) as AuditRow[];
    for (const row of batch) {
      const checked = expectedSeq - 1;
      if (row.seq !== expectedSeq) {
        const missing =
          row.seq - 1 === expectedSeq ? `row ${expectedSeq} is` : `rows ${expectedSeq}–${row.seq - 1} are`;
        return {
          ok: false,
          rows: checked,
          first_bad_row: expectedSeq,
          reason: `${missing} missing (deleted)`,
        };
      }
      if (row.prevHash !== prevHash) {
        return {
          ok: false,
          rows: checked,
          first_bad_row: row.seq,
          reason: `row ${row.seq} does not carry the hash of row ${row.seq - 1} (a row was changed or replaced)`,
        };
      }
      const actual = rowHash(row);
      if (actual !== row.rowHash) {
        return {
          ok: false,
          rows: checked,
          first_bad_row: row.seq,
          reason: `row ${row.seq}'s content does not match its hash (the row was edited)`,
        };
      }
      prevHash = row.rowHash;
      expectedSeq += 1;
    }
    if (batch.length < BATCH) break;
  }
  const rows = expectedSeq - 1;
  if (rows < head.lastSeq) {
    const missing =
      rows + 1 === head.lastSeq ? `row ${head.lastSeq} is` : `rows ${rows + 1}–${head.lastSeq} are`;
    return { ok: false, rows, first_bad_row: rows + 1, reason: `${missing} missing at the end (deleted)` };
  }
  if (head.lastHash !== prevHash) {
    return {
      ok: false,
      rows,
      first_bad_row: rows,
      reason: `row ${rows} does not match the chain head's hash`,
    };
  }
  return { ok: true, rows };
}
