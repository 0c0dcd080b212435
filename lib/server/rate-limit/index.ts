/**
 * A rate limiter shared by every instance: fixed windows counted in one atomic SQL upsert per call, so
 * concurrent consumers in any number of processes never exceed the limit together. A window is aligned to the
 * epoch (e.g. each whole minute), so every instance agrees on it. `now` is injectable for tests.
 */
import "server-only";
import { lt, sql } from "drizzle-orm";
import type { Database } from "@/lib/server/db";
import { rateLimits } from "@/lib/server/db/schema";
import { ApiError } from "@/lib/server/errors";

/** RATE_LIMIT_PER_MINUTE's window. */
export const UPSTREAM_WINDOW_SECONDS = 60;

export interface RateLimitResult {
  allowed: boolean;
  /** Calls left in this window after this one. */
  remaining: number;
  /** When refused: seconds until the window ends (for Retry-After); 0 when allowed. */
  retryAfterSeconds: number;
}

export function createRateLimiter({ db, now = () => new Date() }: { db: Database; now?: () => Date }) {
  return {
    async consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
      if (!(Number.isInteger(limit) && limit > 0 && Number.isInteger(windowSeconds) && windowSeconds > 0)) {
        throw new Error("A rate limit needs a positive whole limit and window.");
      }
      const at = now().getTime();
      const windowMs = windowSeconds * 1000;
      const windowStart = new Date(Math.floor(at / windowMs) * windowMs);
      // The key names the window size too, so two limits on one key never share a counter.
      const counterKey = `${key}|${windowSeconds}`;
      const [counter] = await db
        .insert(rateLimits)
        .values({ key: counterKey, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when excluded.window_start > ${rateLimits.windowStart} then 1 else ${rateLimits.count} + 1 end`,
            windowStart: sql`greatest(excluded.window_start, ${rateLimits.windowStart})`,
          },
        })
        .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
      if (!counter) throw new Error("The rate limit counter was not returned.");
      const allowed = counter.count <= limit;
      const windowEnd = counter.windowStart.getTime() + windowMs;
      return {
        allowed,
        remaining: Math.max(0, limit - counter.count),
        retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowEnd - at) / 1000)),
      };
    },

    /** Deletes counters whose window began more than `olderThanSeconds` ago (use more than the longest window). */
    async purge(olderThanSeconds: number): Promise<number> {
      const before = new Date(now().getTime() - olderThanSeconds * 1000);
      const purged = await db
        .delete(rateLimits)
        .where(lt(rateLimits.windowStart, before))
        .returning({ key: rateLimits.key });
      return purged.length;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * One call of `userId` toward the upstream, counted against RATE_LIMIT_PER_MINUTE: the one budget that single
 * calls (the route wrapper) and support batch cards (the batch runner) share. Over it: 429 `rate_limited`, with
 * Retry-After and the wait in `details.retry_after_seconds`.
 */
export async function spendUpstreamCall(limiter: RateLimiter, userId: string, limit: number): Promise<void> {
  const result = await limiter.consume(`upstream:${userId}`, limit, UPSTREAM_WINDOW_SECONDS);
  if (result.allowed) return;
  const wait = result.retryAfterSeconds;
  throw new ApiError(
    "rate_limited",
    `You made more than ${limit} calls to the Card Services API in a minute; try again in ${wait} s.`,
    { limit, window_seconds: UPSTREAM_WINDOW_SECONDS, retry_after_seconds: wait },
    { "Retry-After": String(wait) },
  );
}
