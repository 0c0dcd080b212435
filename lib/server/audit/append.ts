/**
 * Appends rows to the audit log. Every append moves the one chain head row from the hash it was chained to, in the
 * same statement as the insert, so concurrent writers (any number of processes on one PostgreSQL) form one
 * unbroken chain: a writer that lost the race chains again. Within a process, appends are written together
 * (group commit): each batch waits one turn of the event loop (setImmediate) before it is written, so the calls
 * whose I/O is already in (which PGlite's never-yielding queries would otherwise keep out) join it, and appends
 * that arrive while a write is under way go in the next one. A busy console pays one commit per batch, not per
 * row; each append resolves only after its batch committed. Each row is also one JSON line in the server log,
 * for a SIEM.
 */
import "server-only";
import { eq } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { writeBatchOrEach } from "@/lib/server/database/batch-write";
import { queryText } from "@/lib/server/database/rows";
import { auditChainHead } from "@/lib/server/database/schema";
import { logger } from "@/lib/server/util/logger";
import { rowHash, type AuditRow } from "./chain";
import type { Checkpointer } from "./checkpointer";
import { columnArrays, INSERT_ROWS_AFTER_HEAD } from "./columns";
import { toAuditEntry, type AuditEntry, type AuditEntryInput } from "./entry";
import { auditKeys } from "./keys";

/** Rows per transaction at most; the rest wait for the next one. */
const MAX_BATCH = 200;

interface Pending {
  entry: AuditEntry;
  time: Date;
  resolve: (row: AuditRow) => void;
  reject: (error: unknown) => void;
}

export type AuditAppender = (input: AuditEntryInput) => Promise<AuditRow>;

type ChainHead = { lastSeq: number; lastHash: string };

async function readHead(db: Database): Promise<ChainHead> {
  const [row] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  if (!row) throw new Error("The audit chain head is missing: the database migrations were not applied.");
  return row;
}

/** The batch's rows chained after `from`: sequence numbers, previous hashes and keyed hashes. */
function chainRows(batch: Pending[], from: ChainHead, chainKey: Buffer): AuditRow[] {
  let seq = from.lastSeq;
  let prevHash = from.lastHash;
  return batch.map(({ entry, time }) => {
    seq += 1;
    const fields = { ...entry, seq, time, prevHash };
    const row = { ...fields, rowHash: rowHash(fields, chainKey) };
    prevHash = row.rowHash;
    return row;
  });
}

/**
 * One statement, so one round trip: the chain head moves from `from` to the last row, and the rows are inserted
 * only if that move happened. If another writer moved the head first (its row lock makes us wait, then our
 * condition no longer holds), nothing is written: false.
 */
async function insertIfHeadUnmoved(db: Database, rows: AuditRow[], from: ChainHead): Promise<boolean> {
  const last = rows[rows.length - 1]!;
  const inserted = await queryText<{ seq: string | number }>(db, INSERT_ROWS_AFTER_HEAD, [
    last.seq,
    last.rowHash,
    from.lastSeq,
    from.lastHash,
    ...columnArrays(rows),
  ]);
  return inserted.length === rows.length;
}

/** Writes batches after the chain head as this process last saw it; chains again when another writer moved it. */
function createBatchWriter(db: Database, chainKey: Buffer): (batch: Pending[]) => Promise<AuditRow[]> {
  let head: ChainHead | undefined;
  return async (batch) => {
    for (;;) {
      const from = (head ??= await readHead(db));
      const rows = chainRows(batch, from, chainKey);
      if (await insertIfHeadUnmoved(db, rows, from)) {
        const last = rows[rows.length - 1]!;
        head = { lastSeq: last.seq, lastHash: last.rowHash };
        return rows;
      }
      head = await readHead(db);
    }
  };
}

export function createAuditAppender(
  db: Database,
  hmacKey: string,
  now: () => Date = () => new Date(),
  checkpointer?: Checkpointer,
  /** Told the size of every committed batch: one statement each (metrics, tests, the bench). */
  onBatch?: (rows: number) => void,
): AuditAppender {
  const writeBatch = createBatchWriter(db, auditKeys(hmacKey).chainKey);
  const queue: Pending[] = [];
  let writing = false;

  /** One batch after one event-loop turn; then the next, while rows keep coming. */
  function schedule(): void {
    if (writing) return;
    writing = true;
    setImmediate(() => void drainOne());
  }

  async function commit(batch: Pending[]): Promise<void> {
    const rows = await writeBatch(batch);
    onBatch?.(rows.length);
    checkpointer?.rowsAppended(rows.length);
    rows.forEach((row, index) => {
      logger.info({ audit: auditLogLine(row) }, "audit");
      batch[index]!.resolve(row);
    });
  }

  async function drainOne(): Promise<void> {
    try {
      // One row the database refuses fails the whole statement: the others must not fail with it.
      await writeBatchOrEach(queue.splice(0, MAX_BATCH), commit);
    } finally {
      writing = false;
      if (queue.length > 0) schedule();
    }
  }

  return (input) => {
    let entry: AuditEntry;
    try {
      entry = storableEntry(toAuditEntry(input, hmacKey));
    } catch (error) {
      return Promise.reject(error);
    }
    // Milliseconds only, as stored (timestamp(3)), so the hash recomputed from the stored row matches.
    const time = new Date(now().getTime());
    return new Promise<AuditRow>((resolve, reject) => {
      queue.push({ entry, time, resolve, reject });
      schedule();
    });
  };
}

const NUL = /\u0000/g;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Either kind of character the two above look for: text without one (nearly all) is stored as it is. */
const MAYBE_UNSTORABLE = /[\u0000\uD800-\uDFFF]/;

/**
 * Text PostgreSQL can store as it is hashed: NUL (which text and jsonb refuse) and lone surrogates (which have
 * no UTF-8 form, so the stored text would differ from the hashed one) become U+FFFD.
 */
function storable<T>(value: T): T {
  return (
    typeof value === "string" && MAYBE_UNSTORABLE.test(value)
      ? value.replace(NUL, "\uFFFD").replace(LONE_SURROGATES, "\uFFFD")
      : value
  ) as T;
}

/** Every text of the row storable, whatever field of the caller's it came from. */
function storableEntry(entry: AuditEntry): AuditEntry {
  const row = Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, storable(value)]));
  return {
    ...(row as unknown as AuditEntry),
    roles: entry.roles.map(storable),
    details: entry.details
      ? Object.fromEntries(
          Object.entries(entry.details).map(([key, value]) => [storable(key), storable(value)]),
        )
      : null,
  };
}

/** The server-log form: the row without its chain hashes (hex runs could read as card numbers to the log filter). */
function auditLogLine(row: AuditRow): Record<string, unknown> {
  const { prevHash: _prevHash, rowHash: _rowHash, time, ...rest } = row;
  return { ...rest, time: time.toISOString() };
}
