/**
 * Suspensions: an administrator keeps a user out for a stated time. Ending a session is not enough where the
 * user can sign straight back in (AUTH_MODE=proxy: the proxy's headers make a new session on the next request;
 * oidc: the provider's own session outlives the console's). The row lives in the database, so every instance
 * refuses the user (403 `user_suspended`) until it ends or is lifted; suspending also ends the user's sessions.
 */
import "server-only";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { SESSION_ENDED_CHANNEL, type ChangeFeed } from "@/lib/server/database/change-feed";
import { userSuspensions } from "@/lib/server/database/schema";
import { ApiError } from "@/lib/server/util/errors";
import { createSuspensionCache, suspensionNotice } from "./suspension-cache";

export interface Suspension {
  userId: string;
  until: Date;
  reason: string | null;
  suspendedBy: string;
  suspendedAt: Date;
}

export interface SuspensionStoreOptions {
  db: Database;
  now?: () => Date;
  /** With a feed, each user's answer is kept in memory and every change is announced on it. */
  feed?: ChangeFeed;
}

/**
 * Runs `change` and announces it on the feed: on PostgreSQL the NOTIFY commits with the change, and the call
 * returns once this instance's LISTEN connection delivered it (every instance was sent it by then).
 */
async function announced<T>(
  db: Database,
  feed: ChangeFeed | undefined,
  change: (tx: Database) => Promise<T>,
) {
  const notice = suspensionNotice();
  if (feed?.kind !== "notify") {
    const result = await change(db);
    feed?.publishLocally(notice);
    return result;
  }
  const result = await db.transaction(async (tx) => {
    const changed = await change(tx as unknown as Database);
    await tx.execute(sql`select pg_notify(${SESSION_ENDED_CHANNEL}, ${notice})`);
    return changed;
  });
  feed.publishLocally(notice);
  await feed.delivered(notice, 500);
  return result;
}

async function readActive(db: Database, userId: string, at: Date): Promise<Suspension | null> {
  const [row] = await db
    .select()
    .from(userSuspensions)
    .where(and(eq(userSuspensions.userId, userId), gt(userSuspensions.until, at)));
  return row ?? null;
}

export function createSuspensionStore({ db, now = () => new Date(), feed }: SuspensionStoreOptions) {
  const cache = feed ? createSuspensionCache(feed) : undefined;
  const inForce = (suspension: Suspension | null) =>
    suspension && suspension.until.getTime() > now().getTime() ? suspension : null;
  return {
    /** Suspends (or suspends again, replacing the earlier one) for `minutes` from now. */
    async suspend(input: {
      userId: string;
      minutes: number;
      reason: string | null;
      by: string;
    }): Promise<Suspension> {
      const at = now();
      const row: Suspension = {
        userId: input.userId,
        until: new Date(at.getTime() + input.minutes * 60_000),
        reason: input.reason,
        suspendedBy: input.by,
        suspendedAt: at,
      };
      await announced(db, feed, (tx) =>
        tx
          .insert(userSuspensions)
          .values(row)
          .onConflictDoUpdate({
            target: userSuspensions.userId,
            set: { until: row.until, reason: row.reason, suspendedBy: row.suspendedBy, suspendedAt: at },
          }),
      );
      return row;
    },

    /** Lifts a suspension in force; true when there was one. */
    async lift(userId: string): Promise<boolean> {
      const lifted = await announced(db, feed, (tx) =>
        tx
          .delete(userSuspensions)
          .where(and(eq(userSuspensions.userId, userId), gt(userSuspensions.until, now())))
          .returning({ userId: userSuspensions.userId }),
      );
      return lifted.length > 0;
    },

    /** The user's suspension in force, or null. */
    async activeFor(userId: string): Promise<Suspension | null> {
      if (!cache) return readActive(db, userId, now());
      const cached = cache.get(userId);
      if (cached) return inForce(cached.suspension);
      return inForce(await cache.read(userId, () => readActive(db, userId, now())));
    },

    /** The suspensions in force, soonest end first. */
    list(limit = 500): Promise<Suspension[]> {
      return db
        .select()
        .from(userSuspensions)
        .where(gt(userSuspensions.until, now()))
        .orderBy(asc(userSuspensions.until))
        .limit(limit);
    },
  };
}

export type SuspensionStore = ReturnType<typeof createSuspensionStore>;

/** 403 `user_suspended` for a suspension in force. */
export function suspendedError(suspension: Suspension): ApiError {
  return new ApiError(
    "user_suspended",
    `An administrator suspended your access to this console until ${suspension.until.toISOString()}.`,
    { until: suspension.until.toISOString() },
  );
}
