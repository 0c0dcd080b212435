/**
 * Suspensions: an administrator keeps a user out for a stated time. Ending a session is not enough where the
 * user can sign straight back in (AUTH_MODE=proxy: the proxy's headers make a new session on the next request;
 * oidc: the provider's own session outlives the console's). The row lives in the database, so every instance
 * refuses the user (403 `user_suspended`) until it ends or is lifted; suspending also ends the user's sessions.
 */
import "server-only";
import { and, asc, eq, gt } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { userSuspensions } from "@/lib/server/database/schema";
import { ApiError } from "@/lib/server/util/errors";

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
}

export function createSuspensionStore({ db, now = () => new Date() }: SuspensionStoreOptions) {
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
      await db
        .insert(userSuspensions)
        .values(row)
        .onConflictDoUpdate({
          target: userSuspensions.userId,
          set: { until: row.until, reason: row.reason, suspendedBy: row.suspendedBy, suspendedAt: at },
        });
      return row;
    },

    /** Lifts a suspension in force; true when there was one. */
    async lift(userId: string): Promise<boolean> {
      const lifted = await db
        .delete(userSuspensions)
        .where(and(eq(userSuspensions.userId, userId), gt(userSuspensions.until, now())))
        .returning({ userId: userSuspensions.userId });
      return lifted.length > 0;
    },

    /** The user's suspension in force, or null. */
    async activeFor(userId: string): Promise<Suspension | null> {
      const [row] = await db
        .select()
        .from(userSuspensions)
        .where(and(eq(userSuspensions.userId, userId), gt(userSuspensions.until, now())));
      return row ?? null;
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
