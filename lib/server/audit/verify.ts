/**
 * Walks the chain in sequence order, in batches (any number of rows, bounded memory), and reports the first row
 * where it breaks: a row whose content no longer matches its keyed hash (edited, forged, renumbered: nobody
 * without the key can chain it again), a row whose previous-hash does not match the row before it, a gap in the
 * sequence (deleted rows), rows missing at the end (per the chain head), or a signed checkpoint the log no longer
 * matches (truncated, emptied or re-chained since). Rows before `keyed_from` are checked with the plain SHA-256
 * they were written with.
 */
import "server-only";
import { and, asc, eq, gt, lte } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { auditChainHead, auditLog } from "@/lib/server/database/schema";
import { GENESIS_HASH, legacyRowHash, rowHash, type AuditRow } from "./chain";
import { loadCheckpoints, type Checkpoint } from "./checkpoint";
import type { AuditKeys } from "./keys";

/** What was checked, in every answer. */
export interface VerifyCoverage {
  /** Valid signed checkpoints compared with the log (from the database and this instance's file). */
  checkpoints: number;
  last_checkpoint: { seq: number; at: string; instance: string } | null;
  /** The first row of the keyed chain; rows before it use the plain SHA-256 chain. */
  keyed_from: number;
  /** Time of the last row checked (null for an empty log). */
  through: string | null;
  verified_at: string;
}

export type VerifyResult = VerifyCoverage &
  ({ ok: true; rows: number } | { ok: false; rows: number; first_bad_row: number; reason: string });

type Failure = { rows: number; first_bad_row: number; reason: string };

const BATCH = 1000;

function range(from: number, to: number): string {
  return from === to ? `row ${from} is` : `rows ${from}–${to} are`;
}

/** Indexes checkpoints by row; the latest one by sequence. */
function indexCheckpoints(checkpoints: Checkpoint[]) {
  const bySeq = new Map<number, Checkpoint[]>();
  let last: Checkpoint | null = null;
  for (const checkpoint of checkpoints) {
    bySeq.set(checkpoint.seq, [...(bySeq.get(checkpoint.seq) ?? []), checkpoint]);
    if (!last || checkpoint.seq > last.seq) last = checkpoint;
  }
  return { bySeq, last };
}

/** One row against the one before it, its own hash and any checkpoint of it. */
function checkRow(
  row: AuditRow,
  expected: { seq: number; prevHash: string },
  keys: AuditKeys,
  keyedFrom: number,
  bySeq: Map<number, Checkpoint[]>,
): Failure | null {
  const rows = expected.seq - 1;
  if (row.seq !== expected.seq) {
    return {
      rows,
      first_bad_row: expected.seq,
      reason: `${range(expected.seq, row.seq - 1)} missing (deleted)`,
    };
  }
  if (row.prevHash !== expected.prevHash) {
    return {
      rows,
      first_bad_row: row.seq,
      reason: `row ${row.seq} does not carry the hash of row ${row.seq - 1} (a row was changed or replaced)`,
    };
  }
  const actual = row.seq < keyedFrom ? legacyRowHash(row) : rowHash(row, keys.chainKey);
  if (actual !== row.rowHash) {
    return {
      rows,
      first_bad_row: row.seq,
      reason: `row ${row.seq}'s content does not match its hash (the row was edited or written without the key)`,
    };
  }
  const differing = bySeq.get(row.seq)?.find((checkpoint) => checkpoint.hash !== actual);
  if (differing) {
    return {
      rows,
      first_bad_row: row.seq,
      reason: `row ${row.seq} is not the row checkpointed at ${differing.at} (the log was rewritten and chained again)`,
    };
  }
  return null;
}

/** Walks rows 1..lastSeq; the failure, or how many rows held and the last one's hash and time. */
async function walk(
  db: Database,
  lastSeq: number,
  check: (row: AuditRow, expected: { seq: number; prevHash: string }) => Failure | null,
): Promise<Failure | { rows: number; prevHash: string; through: Date | null }> {
  const expected = { seq: 1, prevHash: GENESIS_HASH };
  let through: Date | null = null;
  for (;;) {
    const batch = (await db
      .select()
      .from(auditLog)
      .where(and(gt(auditLog.seq, expected.seq - 1), lte(auditLog.seq, lastSeq)))
      .orderBy(asc(auditLog.seq))
      .limit(BATCH)) as AuditRow[];
    for (const row of batch) {
      const failure = check(row, expected);
      if (failure) return failure;
      expected.prevHash = row.rowHash;
      expected.seq += 1;
      through = row.time;
    }
    if (batch.length < BATCH) return { rows: expected.seq - 1, prevHash: expected.prevHash, through };
  }
}

export async function verifyAuditChain(
  db: Database,
  keys: AuditKeys,
  checkpointFile?: string,
): Promise<VerifyResult> {
  // Checkpoints before the head: every checkpoint read then lies at or before the head read next.
  const loaded = await loadCheckpoints(db, keys, checkpointFile);
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  const { bySeq, last } = indexCheckpoints(loaded.valid);
  const coverage: VerifyCoverage = {
    checkpoints: loaded.valid.length,
    last_checkpoint: last && { seq: last.seq, at: last.at, instance: last.instance },
    keyed_from: head?.keyedFrom ?? 1,
    through: null,
    verified_at: new Date().toISOString(),
  };
  const fail = (failure: Failure): VerifyResult => ({ ...coverage, ok: false, ...failure });
  if (!head) return fail({ rows: 0, first_bad_row: 1, reason: "the audit chain head row is missing" });
  const early = checkSetup(head, loaded);
  if (early) return fail(early);
  const walked = await walk(db, head.lastSeq, (row, expected) =>
    checkRow(row, expected, keys, head.keyedFrom, bySeq),
  );
  if (!("prevHash" in walked)) return fail(walked);
  coverage.through = walked.through?.toISOString() ?? null;
  const tail = checkTail(head, walked, last);
  return tail ? fail(tail) : { ...coverage, ok: true, rows: walked.rows };
}

/** Forged checkpoints, and a switch-over to the keyed chain that moved after checkpoints recorded it. */
function checkSetup(
  head: { lastSeq: number; keyedFrom: number },
  loaded: Awaited<ReturnType<typeof loadCheckpoints>>,
): Failure | null {
  const forged = loaded.forged[0];
  if (forged) {
    return {
      rows: 0,
      first_bad_row: forged.seq ?? 1,
      reason: `a checkpoint in the ${forged.source} does not carry a valid signature (written without the key)`,
    };
  }
  const moved = loaded.valid.find((checkpoint) => checkpoint.keyed_from !== head.keyedFrom);
  if (moved || head.keyedFrom > head.lastSeq + 1) {
    return {
      rows: 0,
      first_bad_row: Math.min(head.keyedFrom, moved?.keyed_from ?? head.keyedFrom),
      reason: `the start of the keyed chain (row ${head.keyedFrom}) is not where it was set (the chain head was changed)`,
    };
  }
  return null;
}

/** Rows missing after the walk: per the chain head, or per a checkpoint of a row that is no longer there. */
function checkTail(
  head: { lastSeq: number; lastHash: string },
  walked: { rows: number; prevHash: string },
  last: Checkpoint | null,
): Failure | null {
  const { rows } = walked;
  if (last && last.seq > rows) {
    return {
      rows,
      first_bad_row: rows + 1,
      reason: `${range(rows + 1, last.seq)} missing: a checkpoint signed at ${last.at} vouches for row ${last.seq} (the log was truncated)`,
    };
  }
  if (rows < head.lastSeq) {
    return {
      rows,
      first_bad_row: rows + 1,
      reason: `${range(rows + 1, head.lastSeq)} missing at the end (deleted)`,
    };
  }
  if (head.lastHash !== walked.prevHash) {
    return { rows, first_bad_row: rows, reason: `row ${rows} does not match the chain head's hash` };
  }
  return null;
}
