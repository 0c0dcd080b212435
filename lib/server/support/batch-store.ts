/**
 * Support batches in the database (lib/server/database: PGlite or PostgreSQL), so that a batch outlives the browser tab and,
 * through leases, the instance that started it:
 * - the batch row's `runner_lease_until` names no instance but says one is working on it; an instance takes a batch
 *   over only when that lease has lapsed (`claimRunner`);
 * - each card is claimed (`state = 'running'`, `claimed_at`) with `FOR UPDATE SKIP LOCKED`, so any number of
 *   workers never run one card twice at once; a claim older than the card lease is free again (its worker died).
 * Times come from the caller's clock (`now`), so tests can move them.
 */
import "server-only";
import { and, asc, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { queryRows } from "@/lib/server/database/rows";
import { supportBatchCards, supportBatches } from "@/lib/server/database/schema";
import { maskCardNumbersInText } from "@/lib/shared/masking";
import type { Purse } from "@/lib/shared/purses";
import type { BatchStatus, LookupOutcome, ResultFilter } from "@/lib/shared/support-contract";

export type BatchRow = typeof supportBatches.$inferSelect;

/** Results are kept this long (docs/design.md §9). */
const BATCH_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface NewBatchCard {
  line: number;
  last4: string;
  cardHmac: string;
  cardSealed: string;
  extra?: string[];
}

export interface NewBatch {
  id: string;
  userId: string;
  roles: string[];
  clientAddress: string | null;
  environment: string;
  /** `server`, `demo`, or sealed user credentials (card-vault). */
  credentials: string;
  reason: string | null;
  badLines: { count: number; lines: { line: number; message: string; extra?: string[] }[] };
  /** The uploaded CSV's other columns (empty: none). */
  columns?: string[];
  cards: NewBatchCard[];
  now: Date;
}

const INSERT_CHUNK = 500;

export async function insertBatch(db: Database, batch: NewBatch): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(supportBatches).values({
      id: batch.id,
      userId: batch.userId,
      roles: batch.roles,
      clientAddress: batch.clientAddress,
      environment: batch.environment,
      credentials: batch.credentials,
      // Free text is stored only with card-like digit runs masked (a reason may quote a card).
      reason: batch.reason === null ? null : maskCardNumbersInText(batch.reason),
      status: "queued",
      total: batch.cards.length,
      badLines: {
        count: batch.badLines.count,
        lines: batch.badLines.lines.map((bad) => ({ ...bad, message: maskCardNumbersInText(bad.message) })),
      },
      columns: batch.columns?.length ? batch.columns : null,
      createdAt: batch.now,
      expiresAt: new Date(batch.now.getTime() + BATCH_RETENTION_MS),
    });
    for (let start = 0; start < batch.cards.length; start += INSERT_CHUNK) {
      await tx.insert(supportBatchCards).values(
        batch.cards.slice(start, start + INSERT_CHUNK).map((card, index) => ({
          batchId: batch.id,
          position: start + index,
          line: card.line,
          last4: card.last4,
          cardHmac: card.cardHmac,
          cardSealed: card.cardSealed,
          extra: card.extra ?? null,
          state: "pending",
          attempts: 0,
        })),
      );
    }
  });
}

/** The batch while kept (an expired one reads as absent). */
export async function findBatch(db: Database, id: string, now: Date): Promise<BatchRow | undefined> {
  const [row] = await db
    .select()
    .from(supportBatches)
    .where(and(eq(supportBatches.id, id), gt(supportBatches.expiresAt, now)));
  return row;
}

export interface BatchCounts {
  pending: number;
  running: number;
  done: number;
  failed: number;
  cancelled: number;
  /** Finished cards whose answer was "no such card" (state `failed`, outcome `not_found`): a valid answer. */
  notFound: number;
  /** When the last card finished; null before the first. */
  lastFinishedAt: Date | null;
}

export async function countCards(db: Database, id: string): Promise<BatchCounts> {
  const rows = await queryRows<{
    state: string;
    not_found: boolean;
    n: string | number;
    last: string | Date | null;
  }>(
    db,
    sql`select state, coalesce(outcome = 'not_found', false) as not_found, count(*) as n,
          max(finished_at) as last
        from support_batch_cards where batch_id = ${id} group by 1, 2`,
  );
  const counts: BatchCounts = {
    pending: 0,
    running: 0,
    done: 0,
    failed: 0,
    cancelled: 0,
    notFound: 0,
    lastFinishedAt: null,
  };
  for (const row of rows) {
    const n = Number(row.n);
    const tally = counts as unknown as Record<string, number>;
    if (row.state in counts) tally[row.state] = (tally[row.state] ?? 0) + n;
    if (row.state === "failed" && row.not_found) counts.notFound += n;
    if (row.last !== null) {
      const last = new Date(row.last);
      if (!counts.lastFinishedAt || last > counts.lastFinishedAt) counts.lastFinishedAt = last;
    }
  }
  return counts;
}

/** The batches kept (not expired), newest first: one user's, or everyone's when `userId` is null. */
export async function listBatchRows(
  db: Database,
  userId: string | null,
  now: Date,
  limit: number,
): Promise<BatchRow[]> {
  const live = gt(supportBatches.expiresAt, now);
  return db
    .select()
    .from(supportBatches)
    .where(userId === null ? live : and(live, eq(supportBatches.userId, userId)))
    .orderBy(desc(supportBatches.createdAt))
    .limit(limit);
}

export async function claimRunner(
  db: Database,
  id: string,
  now: Date,
  leaseMs: number,
): Promise<BatchRow | undefined> {
  const [row] = await db
    .update(supportBatches)
    .set({
      status: "running",
      startedAt: sql`coalesce(${supportBatches.startedAt}, ${now.toISOString()}::timestamptz)`,
      runnerLeaseUntil: new Date(now.getTime() + leaseMs),
    })
    .where(
      and(
        eq(supportBatches.id, id),
        inArray(supportBatches.status, ["queued", "running"]),
        sql`(${supportBatches.runnerLeaseUntil} is null or ${supportBatches.runnerLeaseUntil} < ${now.toISOString()}::timestamptz)`,
      ),
    )
    .returning();
  return row;
}

/**
 * Batches that should be running and that no instance holds (their runner's lease lapsed, or it let go without
 * finishing), within their retention: what a sweep takes over. Oldest first, at most `limit`.
 */
export async function abandonedBatchIds(db: Database, now: Date, limit = 20): Promise<string[]> {
  const at = now.toISOString();
  const rows = await db
    .select({ id: supportBatches.id })
    .from(supportBatches)
    .where(
      and(
        inArray(supportBatches.status, ["queued", "running"]),
        sql`(${supportBatches.runnerLeaseUntil} is null or ${supportBatches.runnerLeaseUntil} < ${at}::timestamptz)`,
        gt(supportBatches.expiresAt, now),
      ),
    )
    .orderBy(asc(supportBatches.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function renewRunner(db: Database, id: string, now: Date, leaseMs: number): Promise<void> {
  await db
    .update(supportBatches)
    .set({ runnerLeaseUntil: new Date(now.getTime() + leaseMs) })
    .where(and(eq(supportBatches.id, id), eq(supportBatches.status, "running")));
}

export async function releaseRunner(db: Database, id: string): Promise<void> {
  await db.update(supportBatches).set({ runnerLeaseUntil: null }).where(eq(supportBatches.id, id));
}

export interface ClaimedCard {
  position: number;
  line: number;
  last4: string;
  cardHmac: string;
  cardSealed: string;
  attempts: number;
}

/**
 * Claims up to `limit` cards of a running batch, in input order: pending ones whose 429 wait is over, and
 * running ones whose claim is older than `cardLeaseMs` (their worker is gone).
 */
export async function claimCards(
  db: Database,
  id: string,
  limit: number,
  now: Date,
  cardLeaseMs: number,
): Promise<ClaimedCard[]> {
  const at = now.toISOString();
  const staleBefore = new Date(now.getTime() - cardLeaseMs).toISOString();
  const rows = await queryRows<{
    position: number;
    line: number;
    last4: string;
    card_hmac: string;
    card_sealed: string | null;
    attempts: number;
  }>(
    db,
    sql`with picked as (
          select position from support_batch_cards
          where batch_id = ${id}
            and ((state = 'pending' and (not_before is null or not_before <= ${at}::timestamptz))
              or (state = 'running' and claimed_at < ${staleBefore}::timestamptz))
            and exists (select 1 from support_batches b where b.id = ${id} and b.status = 'running')
          order by position
          limit ${limit}::int
          for update skip locked
        )
        update support_batch_cards c
        set state = 'running', claimed_at = ${at}::timestamptz, attempts = c.attempts + 1
        from picked
        where c.batch_id = ${id} and c.position = picked.position
        returning c.position, c.line, c.last4, c.card_hmac, c.card_sealed, c.attempts`,
  );
  return rows
    .filter((row) => row.card_sealed !== null)
    .map((row) => ({
      position: Number(row.position),
      line: Number(row.line),
      last4: row.last4,
      cardHmac: row.card_hmac,
      cardSealed: row.card_sealed!,
      attempts: Number(row.attempts),
    }))
    .sort((a, b) => a.position - b.position);
}

export interface CardResult {
  outcome: LookupOutcome;
  balances: Record<Purse, string> | null;
  upstreamStatus: number | null;
  error: string | null;
}

/** Outcomes that are answers (the card has balances, or does not exist): nothing to run again. */
const ANSWERED: ReadonlySet<LookupOutcome> = new Set(["found", "not_found"]);

/** The sealed numbers of a batch's failed cards (no usable answer), in input order, for a new batch of them. */
export async function failedSealedCards(
  db: Database,
  id: string,
): Promise<{ line: number; sealed: string }[]> {
  const rows = await db
    .select({ line: supportBatchCards.line, sealed: supportBatchCards.cardSealed })
    .from(supportBatchCards)
    .where(
      and(eq(supportBatchCards.batchId, id), eq(supportBatchCards.state, "failed"), shownCards("failed")),
    )
    .orderBy(asc(supportBatchCards.position));
  return rows.flatMap((row) => (row.sealed ? [{ line: row.line, sealed: row.sealed }] : []));
}

/** Records a card's final result (an answered card forgets its number); false when it is no longer held. */
export async function finishCard(
  db: Database,
  id: string,
  position: number,
  result: CardResult,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(supportBatchCards)
    .set({
      state: result.outcome === "found" ? "done" : "failed",
      outcome: result.outcome,
      balances: result.balances,
      upstreamStatus: result.upstreamStatus,
      // An upstream's message may echo the card.
      error: result.error === null ? null : maskCardNumbersInText(result.error),
      // A card with no usable answer keeps its sealed number (until the batch expires) for "Run the failed
      // cards again"; an answered card forgets it.
      cardSealed: ANSWERED.has(result.outcome) ? null : sql`${supportBatchCards.cardSealed}`,
      claimedAt: null,
      finishedAt: now,
    })
    .where(
      and(
        eq(supportBatchCards.batchId, id),
        eq(supportBatchCards.position, position),
        eq(supportBatchCards.state, "running"),
      ),
    )
    .returning({ position: supportBatchCards.position });
  return rows.length > 0;
}

/** Puts a card back until `notBefore` (the upstream's Retry-After). */
export async function deferCard(
  db: Database,
  id: string,
  position: number,
  notBefore: Date,
  error: string,
): Promise<void> {
  await db
    .update(supportBatchCards)
    .set({ state: "pending", claimedAt: null, notBefore, error: maskCardNumbersInText(error) })
    .where(
      and(
        eq(supportBatchCards.batchId, id),
        eq(supportBatchCards.position, position),
        eq(supportBatchCards.state, "running"),
      ),
    );
}

/** Gives a claimed card back untouched (it was not sent: the owner's rate limit held it): not an attempt. */
export async function returnCard(db: Database, id: string, position: number): Promise<void> {
  await db
    .update(supportBatchCards)
    .set({ state: "pending", claimedAt: null, attempts: sql`greatest(${supportBatchCards.attempts} - 1, 0)` })
    .where(
      and(
        eq(supportBatchCards.batchId, id),
        eq(supportBatchCards.position, position),
        eq(supportBatchCards.state, "running"),
      ),
    );
}

/**
 * When the batch's next card may become claimable: the earliest 429 wait among pending cards, or the lapse of
 * a claim held elsewhere. Null when nothing is pending or running.
 */
export async function nextWake(db: Database, id: string, cardLeaseMs: number): Promise<Date | null> {
  const [row] = await queryRows<{ wake: string | Date | null; open: string | number }>(
    db,
    sql`select min(case when state = 'pending' then coalesce(not_before, 'epoch'::timestamptz)
                         else claimed_at + ${`${cardLeaseMs} milliseconds`}::interval end) as wake,
               count(*) as open
        from support_batch_cards where batch_id = ${id} and state in ('pending', 'running')`,
  );
  if (!row || Number(row.open) === 0 || row.wake === null) return null;
  return new Date(row.wake);
}

/** Marks the batch done when no card is left to run; forgets its credentials. True when this call did it. */
export async function completeIfFinished(db: Database, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(supportBatches)
    .set({ status: "done", finishedAt: now, credentials: null, runnerLeaseUntil: null })
    .where(
      and(
        eq(supportBatches.id, id),
        eq(supportBatches.status, "running"),
        sql`not exists (select 1 from support_batch_cards c
              where c.batch_id = ${id} and c.state in ('pending', 'running'))`,
      ),
    )
    .returning({ id: supportBatches.id });
  return rows.length > 0;
}

/**
 * Cancels a queued or running batch: cards not yet started are cancelled and their numbers forgotten; cards in
 * flight finish and keep their result. Returns how many cards will not run, or null when the batch had ended.
 */
export async function cancelBatch(db: Database, id: string, now: Date): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .update(supportBatches)
      .set({ status: "cancelled", finishedAt: now, credentials: null })
      .where(and(eq(supportBatches.id, id), inArray(supportBatches.status, ["queued", "running"])))
      .returning({ id: supportBatches.id });
    if (!batch) return null;
    const cancelled = await tx
      .update(supportBatchCards)
      .set({ state: "cancelled", cardSealed: null, claimedAt: null, finishedAt: now })
      .where(and(eq(supportBatchCards.batchId, id), eq(supportBatchCards.state, "pending")))
      .returning({ position: supportBatchCards.position });
    return cancelled.length;
  });
}

export async function batchStatus(db: Database, id: string): Promise<BatchStatus | undefined> {
  const [row] = await db
    .select({ status: supportBatches.status })
    .from(supportBatches)
    .where(eq(supportBatches.id, id));
  return row?.status as BatchStatus | undefined;
}

export type ResultRow = Pick<
  typeof supportBatchCards.$inferSelect,
  "position" | "line" | "last4" | "cardHmac" | "state" | "outcome" | "balances" | "error" | "extra"
>;

/** The SQL condition of each results filter (`?show=`): "not found" is a valid answer, apart from failures. */
function shownCards(show: ResultFilter | undefined) {
  const { state, outcome } = supportBatchCards;
  switch (show) {
    case "found":
      return eq(state, "done");
    case "not_found":
      return and(eq(state, "failed"), eq(outcome, "not_found"));
    case "failed":
      return and(eq(state, "failed"), sql`${outcome} is distinct from 'not_found'`);
    case "cancelled":
      return eq(state, "cancelled");
    case "in_flight":
      return inArray(state, ["pending", "running"]);
    default:
      return undefined;
  }
}

/** Results in input order from `fromPosition`, at most `limit`. */
export async function resultRows(
  db: Database,
  id: string,
  fromPosition: number,
  limit: number,
  show?: ResultFilter,
): Promise<ResultRow[]> {
  return db
    .select({
      position: supportBatchCards.position,
      line: supportBatchCards.line,
      last4: supportBatchCards.last4,
      cardHmac: supportBatchCards.cardHmac,
      state: supportBatchCards.state,
      outcome: supportBatchCards.outcome,
      balances: supportBatchCards.balances,
      error: supportBatchCards.error,
      extra: supportBatchCards.extra,
    })
    .from(supportBatchCards)
    .where(
      and(
        eq(supportBatchCards.batchId, id),
        sql`${supportBatchCards.position} >= ${fromPosition}`,
        shownCards(show),
      ),
    )
    .orderBy(asc(supportBatchCards.position))
    .limit(limit);
}

/** Deletes batches (and their cards) past their retention. Returns how many. */
export async function purgeExpiredBatches(db: Database, now: Date): Promise<number> {
  const rows = await db
    .delete(supportBatches)
    .where(lt(supportBatches.expiresAt, now))
    .returning({ id: supportBatches.id });
  return rows.length;
}
