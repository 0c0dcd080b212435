/**
 * Walks the chain in sequence order, in batches (any number of rows, bounded memory), and reports the first row
 * where it breaks: a row whose content no longer matches its keyed hash (edited, forged, renumbered: nobody
 * without the key can chain it again), a row whose previous-hash does not match the row before it, a gap in the
 * sequence (deleted rows), rows missing at the end (per the chain head), or a signed checkpoint the log no longer
 * matches (truncated, emptied or re-chained since). Rows before `keyed_from` are checked with the plain SHA-256
 * they were written with, and only count when a keyed row follows them (checkKeyedStart).
 *
 * The walk reads one bounded page at a time and yields the event loop between pages: on the embedded database
 * every query runs on the request thread, so a request arriving during a verify waits for one page, never for the
 * whole table. Asked `from: "checkpoint"`, it starts at the last signed checkpoint an earlier walk of this process
 * found intact, so its cost grows with the rows written since, not with the table.
 */
import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import { asc, eq, gte } from "drizzle-orm";
import type { ChainCoverage, ChainVerdict } from "@/lib/shared/audit-contract";
import type { Database } from "@/lib/server/database";
import { auditChainHead, auditLog } from "@/lib/server/database/schema";
import { GENESIS_HASH, legacyRowHash, rowHash, type AuditRow } from "./chain";
import { loadCheckpoints, type Checkpoint } from "./checkpoint";
import type { AuditKeys } from "./keys";

/** Where a walk starts: row 1, or the last checkpoint an earlier walk found intact. */
export type VerifyFrom = "start" | "checkpoint";

/** A checkpoint an earlier walk reached with the chain intact; shared between walks of one audit log. */
export interface VerifiedAnchor {
  current: Checkpoint | null;
}

/** What a walk answers (`GET /api/audit/verify`). */
export type VerifyResult = ChainVerdict;

type Failure = { rows: number; first_bad_row: number; reason: string };

/** Rows per page: small enough that a request arriving meanwhile waits for one page only. */
const VERIFY_PAGE_ROWS = 250;

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

/**
 * One page of rows from `fromSeq` on. No upper bound in the query: with one, PostgreSQL (PGlite has no statistics
 * on the table) reads every row up to it and sorts them, which makes each page cost the rest of the table; this
 * way it is one ordered index scan of at most a page. Rows past the chain head read here are left out by the walk.
 */
function readPage(db: Database, fromSeq: number): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(gte(auditLog.seq, fromSeq))
    .orderBy(asc(auditLog.seq))
    .limit(VERIFY_PAGE_ROWS) as Promise<AuditRow[]>;
}

/** Walks rows start.seq..lastSeq; the failure, or how many rows held and the last one's hash and time. */
async function walk(
  db: Database,
  start: { seq: number; prevHash: string },
  lastSeq: number,
  check: (row: AuditRow, expected: { seq: number; prevHash: string }) => Failure | null,
): Promise<Failure | { rows: number; prevHash: string; through: Date | null }> {
  const expected = { ...start };
  let through: Date | null = null;
  for (;;) {
    const page = await readPage(db, expected.seq);
    for (const row of page) {
      // Rows appended since the chain head was read are for the next verify.
      if (row.seq > lastSeq) break;
      const failure = check(row, expected);
      if (failure) return failure;
      expected.prevHash = row.rowHash;
      expected.seq += 1;
      through = row.time;
    }
    if (page.length < VERIFY_PAGE_ROWS || expected.seq > lastSeq) {
      return { rows: expected.seq - 1, prevHash: expected.prevHash, through };
    }
    // Requests that arrived during this page go before the next one.
    await nextTurn();
  }
}

/**
 * Where the walk starts: row 1, or (asked `from: "checkpoint"`) the row of the last checkpoint an earlier walk
 * found intact, when it still fits the chain head. That row is read again and checked against its checkpoint,
 * so its stored previous-hash is the one that was signed.
 */
async function startOfWalk(
  db: Database,
  head: { lastSeq: number; keyedFrom: number },
  anchor: Checkpoint | null,
): Promise<{ seq: number; prevHash: string; anchor: Checkpoint | null }> {
  if (!anchor || anchor.seq > head.lastSeq || anchor.keyed_from !== head.keyedFrom) {
    return { seq: 1, prevHash: GENESIS_HASH, anchor: null };
  }
  const [row] = await db.select().from(auditLog).where(eq(auditLog.seq, anchor.seq));
  return { seq: anchor.seq, prevHash: row?.prevHash ?? GENESIS_HASH, anchor };
}

export interface VerifyOptions {
  /** DATA_DIR/audit-checkpoints.jsonl of this instance. */
  checkpointFile?: string;
  from?: VerifyFrom;
  /** Remembers the last checkpoint a walk found intact; without it every walk starts at row 1. */
  verified?: VerifiedAnchor;
}

export async function verifyAuditChain(
  db: Database,
  keys: AuditKeys,
  { checkpointFile, from = "start", verified }: VerifyOptions = {},
): Promise<VerifyResult> {
  // Checkpoints before the head: every checkpoint read then lies at or before the head read next.
  const loaded = await loadCheckpoints(db, keys, checkpointFile);
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  const { bySeq, last } = indexCheckpoints(loaded.valid);
  const coverage: ChainCoverage = {
    checkpoints: loaded.valid.length,
    last_checkpoint: last && { seq: last.seq, at: last.at, instance: last.instance },
    keyed_from: head?.keyedFrom ?? 1,
    through: null,
    verified_at: new Date().toISOString(),
    walked_from: 1,
    started_at_checkpoint: null,
  };
  const fail = (failure: Failure): VerifyResult => ({ ...coverage, ok: false, ...failure });
  if (!head) return fail({ rows: 0, first_bad_row: 1, reason: "the audit chain head row is missing" });
  const early = checkSetup(head, loaded);
  if (early) return fail(early);
  const start = await startOfWalk(db, head, from === "checkpoint" ? (verified?.current ?? null) : null);
  if (start.anchor) {
    // The anchor is checked against its row even when its database copy has since been deleted.
    bySeq.set(start.anchor.seq, [...(bySeq.get(start.anchor.seq) ?? []), start.anchor]);
    coverage.walked_from = start.seq;
    coverage.started_at_checkpoint = {
      seq: start.anchor.seq,
      at: start.anchor.at,
      instance: start.anchor.instance,
    };
  }
  const walked = await walk(db, start, head.lastSeq, (row, expected) =>
    checkRow(row, expected, keys, head.keyedFrom, bySeq),
  );
  if (!("prevHash" in walked)) return fail(walked);
  coverage.through = walked.through?.toISOString() ?? null;
  const tail = checkTail(head, walked, last);
  if (tail) return fail(tail);
  if (verified && last && last.seq > (verified.current?.seq ?? 0)) verified.current = last;
  return { ...coverage, ok: true, rows: walked.rows };
}

/**
 * The first row of the keyed chain is what pins where it starts: its keyed hash covers its number and the plain
 * hash before it, so a writer without the key can neither move the start elsewhere nor rewrite the plain rows
 * before it. A log with plain rows must therefore have that row; without it, every row could have been chained
 * again with plain SHA-256 and the start moved past them (a fresh database is keyed from row 1, and a log
 * migrated with plain rows gets a keyed `audit_chain_keyed` row at once, ./keyed-start).
 */
function checkKeyedStart(head: { lastSeq: number; keyedFrom: number }): Failure | null {
  if (head.keyedFrom === 1 || head.keyedFrom <= head.lastSeq) return null;
  const plain = head.keyedFrom - 1;
  return {
    rows: 0,
    first_bad_row: head.keyedFrom,
    reason:
      `no row written with the key follows the ${plain === 1 ? "row" : `${plain} rows`} of the plain chain ` +
      `(row ${head.keyedFrom}, the first keyed row, is missing): the keyed rows were removed or the log was ` +
      "chained again without the key",
  };
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
  return checkKeyedStart(head);
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
