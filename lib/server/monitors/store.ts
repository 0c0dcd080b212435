/**
 * Monitors, their runs and their alert deliveries in the console's database (PGlite or PostgreSQL, one code path).
 * Every claim is one atomic UPDATE whose WHERE is re-checked on the row it locks, so of N instances exactly one
 * wins a due run, a run now, or a delivery attempt.
 */
import "server-only";
import { and, desc, eq, gt, inArray, isNull, lt, lte, notInArray, or, sql } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { queryRows } from "@/lib/server/database/rows";
import {
  alertDeliveries,
  certificationRuns,
  monitorRuns,
  monitors,
  type DeliveryAttempt,
} from "@/lib/server/database/schema";
import { ApiError } from "@/lib/server/util/errors";
import type { MonitorState } from "@/lib/shared/monitors-api";
import { MAX_MONITORS, MAX_MONITORS_PER_USER } from "@/lib/shared/monitor-rules";
import { afterRun } from "./schedule";

export type MonitorRow = typeof monitors.$inferSelect;
export type MonitorRunRow = typeof monitorRuns.$inferSelect;
export type DeliveryRow = typeof alertDeliveries.$inferSelect;

/** Runs kept per monitor (with their docs/design.md §8 runs and evidence): a monitor every minute must not fill the database. */
const RUNS_KEPT_PER_MONITOR = 200;
/** Any instance serialises creations on this advisory lock, so the caps hold under concurrency. */
const CREATE_LOCK = 0x6d6f6e69;

const unclaimed = (now: Date) => or(isNull(monitors.busyUntil), lt(monitors.busyUntil, now));

/** The monitors themselves: create under the caps, read, change, delete. */
function monitorRows(db: Database) {
  return {
    /** Inserts a monitor unless the console's or the user's cap is reached (409 `monitor_limit`). */
    async insert(row: MonitorRow): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${CREATE_LOCK})`);
        const [counts] = await queryRows<{ all: number; mine: number }>(
          tx,
          sql`select count(*)::int as all, count(*) filter (where created_by = ${row.createdBy})::int as mine from monitors`,
        );
        if ((counts?.all ?? 0) >= MAX_MONITORS) {
          throw new ApiError(
            "monitor_limit",
            `This console keeps at most ${MAX_MONITORS} monitors; delete one first.`,
          );
        }
        if ((counts?.mine ?? 0) >= MAX_MONITORS_PER_USER) {
          throw new ApiError(
            "monitor_limit",
            `One user may keep at most ${MAX_MONITORS_PER_USER} monitors; delete one of yours first.`,
          );
        }
        await tx.insert(monitors).values(row);
      });
    },

    list: (): Promise<MonitorRow[]> => db.select().from(monitors).orderBy(monitors.createdAt, monitors.id),

    async get(id: string): Promise<MonitorRow | undefined> {
      const [row] = await db.select().from(monitors).where(eq(monitors.id, id));
      return row;
    },

    async update(id: string, changes: Partial<MonitorRow>): Promise<MonitorRow | undefined> {
      const [row] = await db.update(monitors).set(changes).where(eq(monitors.id, id)).returning();
      return row;
    },

    async remove(id: string): Promise<MonitorRow | undefined> {
      const [row] = await db.delete(monitors).where(eq(monitors.id, id)).returning();
      return row;
    },
  };
}

/** The claims: a due run, a run now, the lease while it runs, the state it leaves. */
function monitorClaims(db: Database) {
  return {
    /**
     * Claims every due, unpaused monitor nobody is running: its next run moves one period past `now` (missed slots
     * are not made up), the time it was due is kept in `scheduled_for`, and `busy_until` leases it to the caller.
     */
    claimDue: (now: Date, leaseUntil: Date): Promise<MonitorRow[]> =>
      db
        .update(monitors)
        .set({
          scheduledFor: sql`${monitors.nextRunAt}`,
          nextRunAt: sql`${now.toISOString()}::timestamptz + make_interval(mins => ${monitors.everyMinutes})`,
          busyUntil: leaseUntil,
        })
        .where(and(eq(monitors.paused, false), lte(monitors.nextRunAt, now), unclaimed(now)))
        .returning(),

    /** When the next unpaused monitor comes due after `now`; null when none will. */
    async nextDue(now: Date): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<Date | null>`min(${monitors.nextRunAt})`.mapWith(monitors.nextRunAt) })
        .from(monitors)
        .where(and(eq(monitors.paused, false), gt(monitors.nextRunAt, now)));
      return row?.at ?? null;
    },

    /** Leases a monitor for a run now; undefined when a run of it is under way. */
    async claimNow(id: string, now: Date, leaseUntil: Date): Promise<MonitorRow | undefined> {
      const [row] = await db
        .update(monitors)
        .set({ busyUntil: leaseUntil })
        .where(and(eq(monitors.id, id), unclaimed(now)))
        .returning();
      return row;
    },

    /** The running instance is alive: its leases go on. */
    async renew(ids: readonly string[], leaseUntil: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(monitors)
        .set({ busyUntil: leaseUntil })
        .where(inArray(monitors.id, [...ids]));
    },

    async releaseAll(): Promise<void> {
      await db
        .update(monitors)
        .set({ busyUntil: null })
        .where(sql`${monitors.busyUntil} is not null`);
    },

    async release(id: string): Promise<void> {
      await db.update(monitors).set({ busyUntil: null }).where(eq(monitors.id, id));
    },
  };
}

/** The state a finished run leaves its monitor in, judged under the row lock. */
function monitorJudgement(db: Database) {
  return {
    /**
     * Judges a finished run under the monitor's row lock (one instance at a time): the state and count of failing
     * runs it leaves, and the alert the change sends. undefined when the monitor is gone.
     */
    judge: (id: string, run: { status: string; failed: number }) =>
      db.transaction(async (tx) => {
        const [row] = await tx.select().from(monitors).where(eq(monitors.id, id)).for("update");
        if (!row) return undefined;
        const next = afterRun(
          { state: row.state as MonitorState, failingRuns: row.failingRuns },
          run,
          row.alertAfterFailures,
        );
        const [updated] = await tx
          .update(monitors)
          .set({ state: next.state, failingRuns: next.failingRuns })
          .where(eq(monitors.id, id))
          .returning();
        return updated ? { monitor: updated, alert: next.alert } : undefined;
      }),
  };
}

/** Runs an instance that died left "running", found and taken for judging by one instance. */
function orphanRows(db: Database) {
  return {
    /**
     * Runs left "running" by an instance that died mid-run: no instance holds their monitor's lease, and their docs/design.md §8
     * run has ended (marked interrupted by docs/design.md §8's own recovery).
     */
    orphanedRuns: (now: Date): Promise<{ runId: string; monitor: MonitorRow }[]> =>
      db
        .select({ runId: monitorRuns.runId, monitor: monitors })
        .from(monitorRuns)
        .innerJoin(monitors, eq(monitors.id, monitorRuns.monitorId))
        .innerJoin(certificationRuns, eq(certificationRuns.id, monitorRuns.runId))
        .where(
          and(
            eq(monitorRuns.status, "running"),
            unclaimed(now),
            inArray(certificationRuns.status, ["done", "cancelled", "interrupted"]),
          ),
        ),

    /** Takes an orphaned run for judging: true for exactly one instance. */
    async takeOrphan(runId: string): Promise<boolean> {
      const taken = await db
        .update(monitorRuns)
        .set({ status: "interrupted" })
        .where(and(eq(monitorRuns.runId, runId), eq(monitorRuns.status, "running")))
        .returning({ runId: monitorRuns.runId });
      return taken.length > 0;
    },
  };
}

/** A monitor's runs, kept to the newest RUNS_KEPT_PER_MONITOR. */
function monitorRunRows(db: Database) {
  return {
    async addRun(row: typeof monitorRuns.$inferInsert): Promise<void> {
      await db.insert(monitorRuns).values(row);
    },

    async finishRun(runId: string, changes: Partial<MonitorRunRow>): Promise<void> {
      await db.update(monitorRuns).set(changes).where(eq(monitorRuns.runId, runId));
    },

    runs: (monitorId: string, limit: number): Promise<MonitorRunRow[]> =>
      db
        .select()
        .from(monitorRuns)
        .where(eq(monitorRuns.monitorId, monitorId))
        .orderBy(desc(monitorRuns.startedAt), desc(monitorRuns.runId))
        .limit(limit),

    /** The newest run of each monitor (typed by drizzle: raw rows would hold timestamps as text). */
    lastRuns: (): Promise<MonitorRunRow[]> =>
      db
        .selectDistinctOn([monitorRuns.monitorId])
        .from(monitorRuns)
        .orderBy(monitorRuns.monitorId, desc(monitorRuns.startedAt), desc(monitorRuns.runId)),

    /** Drops a monitor's runs past RUNS_KEPT_PER_MONITOR, their docs/design.md §8 runs with them. */
    async prune(monitorId: string): Promise<void> {
      const kept = db
        .select({ id: monitorRuns.runId })
        .from(monitorRuns)
        .where(eq(monitorRuns.monitorId, monitorId))
        .orderBy(desc(monitorRuns.startedAt))
        .limit(RUNS_KEPT_PER_MONITOR);
      const dropped = await db
        .delete(monitorRuns)
        .where(and(eq(monitorRuns.monitorId, monitorId), notInArray(monitorRuns.runId, kept)))
        .returning({ id: monitorRuns.runId });
      if (dropped.length === 0) return;
      await db.delete(certificationRuns).where(
        inArray(
          certificationRuns.id,
          dropped.map((run) => run.id),
        ),
      );
    },
  };
}

/** The alert delivery queue: queued, claimed for an attempt, settled, given back. */
function deliveryQueue(db: Database) {
  return {
    /** Queues an alert; a change of state already queued (judged twice) is not queued again. */
    async addDelivery(row: typeof alertDeliveries.$inferInsert): Promise<boolean> {
      const added = await db
        .insert(alertDeliveries)
        .values(row)
        .onConflictDoNothing()
        .returning({ id: alertDeliveries.id });
      return added.length > 0;
    },

    /**
     * Claims at most `limit` deliveries due now for `claim` until `leaseUntil`. The rows are locked with SKIP
     * LOCKED, so of N instances claiming at once each row goes to exactly one; a lease outlives an attempt's
     * timeout, so no other instance takes a row while its attempt may still be under way.
     */
    claimDeliveries(now: Date, limit: number, claim: string, leaseUntil: Date): Promise<DeliveryRow[]> {
      const due = db
        .select({ id: alertDeliveries.id })
        .from(alertDeliveries)
        .where(
          and(
            eq(alertDeliveries.state, "pending"),
            lte(alertDeliveries.nextAttemptAt, now),
            or(isNull(alertDeliveries.claimedUntil), lt(alertDeliveries.claimedUntil, now)),
          ),
        )
        .orderBy(alertDeliveries.nextAttemptAt)
        .limit(limit)
        .for("update", { skipLocked: true });
      return db
        .update(alertDeliveries)
        .set({ claim, claimedUntil: leaseUntil })
        .where(inArray(alertDeliveries.id, due))
        .returning();
    },

    /** Records an attempt, if `claim` still holds the row (a lapsed claim's late answer changes nothing). */
    async settleDelivery(
      id: string,
      claim: string,
      changes: Pick<DeliveryRow, "state" | "attempts" | "nextAttemptAt" | "lastError">,
      attempt: DeliveryAttempt,
    ): Promise<boolean> {
      const settled = await db
        .update(alertDeliveries)
        .set({
          ...changes,
          attemptLog: sql`${alertDeliveries.attemptLog} || ${JSON.stringify([attempt])}::jsonb`,
          claim: null,
          claimedUntil: null,
        })
        .where(and(eq(alertDeliveries.id, id), eq(alertDeliveries.claim, claim)))
        .returning({ id: alertDeliveries.id });
      return settled.length > 0;
    },

    /** Gives a claim back unattempted (the console is stopping): another instance takes it at once. */
    async releaseDelivery(id: string, claim: string): Promise<void> {
      await db
        .update(alertDeliveries)
        .set({ claim: null, claimedUntil: null })
        .where(and(eq(alertDeliveries.id, id), eq(alertDeliveries.claim, claim)));
    },
  };
}

/** Alert deliveries as the page sees them: listed, redelivered, the ones in trouble. */
function deliveryViews(db: Database) {
  return {
    deliveries: (monitorId: string, limit: number): Promise<DeliveryRow[]> =>
      db
        .select()
        .from(alertDeliveries)
        .where(eq(alertDeliveries.monitorId, monitorId))
        .orderBy(desc(alertDeliveries.createdAt), desc(alertDeliveries.id))
        .limit(limit),

    /**
     * Sends a delivery again, same id (so the same `webhook-id`): pending at once, its hour of retries anew. A
     * delivery whose attempt is under way is left to it. undefined when the monitor has no such delivery.
     */
    async redeliver(monitorId: string, id: string, now: Date): Promise<DeliveryRow | undefined> {
      const [row] = await db
        .update(alertDeliveries)
        .set({ state: "pending", attempts: 0, retryFrom: now, nextAttemptAt: now, lastError: null })
        .where(
          and(
            eq(alertDeliveries.id, id),
            eq(alertDeliveries.monitorId, monitorId),
            or(isNull(alertDeliveries.claimedUntil), lt(alertDeliveries.claimedUntil, now)),
          ),
        )
        .returning();
      if (row) return row;
      const [busy] = await db
        .select()
        .from(alertDeliveries)
        .where(and(eq(alertDeliveries.id, id), eq(alertDeliveries.monitorId, monitorId)));
      return busy;
    },

    /** The newest delivery of each monitor that was not delivered (being retried, or given up). */
    async deliveryProblems(): Promise<DeliveryRow[]> {
      const newest = await db
        .selectDistinctOn([alertDeliveries.monitorId])
        .from(alertDeliveries)
        .where(sql`${alertDeliveries.monitorId} is not null`)
        .orderBy(alertDeliveries.monitorId, desc(alertDeliveries.createdAt));
      return newest.filter((row) => row.state !== "delivered" && row.attempts > 0);
    },
  };
}

export function createMonitorStore(db: Database) {
  return {
    ...monitorRows(db),
    ...monitorClaims(db),
    ...monitorJudgement(db),
    ...monitorRunRows(db),
    ...orphanRows(db),
    ...deliveryQueue(db),
    ...deliveryViews(db),
  };
}

export type MonitorStore = ReturnType<typeof createMonitorStore>;
