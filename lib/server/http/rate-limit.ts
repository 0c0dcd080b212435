/**
 * A rate limiter shared by every instance: fixed windows counted in atomic SQL upserts, each taking a lease of
 * calls (see `leaseSize`), so concurrent consumers in any number of processes never exceed the limit together.
 * A window is aligned to the epoch (e.g. each whole minute), so every instance agrees on it. `now` is
 * injectable for tests.
 */
import "server-only";
import { lt, sql } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { rateLimits } from "@/lib/server/database/schema";
import { ApiError } from "@/lib/server/util/errors";

/** RATE_LIMIT_PER_MINUTE's window. */
const UPSTREAM_WINDOW_SECONDS = 60;
/** CERTIFICATION_RUNS_PER_HOUR's window. */
const RUNS_WINDOW_SECONDS = 3600;

export interface RateLimitResult {
  allowed: boolean;
  /** Calls left in this window after this one. */
  remaining: number;
  /** When refused: seconds until the window ends (for Retry-After); 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Calls taken from the shared counter at once (a lease), spent from memory: one upsert per lease, not per call.
 * A lease is at most 1/16 of the limit, so what another instance holds unspent can refuse a call early by at most
 * that much, never admit one too many; a limit under 16 leases one call at a time, exactly as before.
 */
function leaseSize(limit: number): number {
  return Math.max(1, Math.min(64, Math.floor(limit / 16)));
}

/** Keys with a lease at most, before those of past windows are forgotten. */
const MAX_LEASES = 10_000;

function forgetPastWindows(leases: LeaseBook, at: number): void {
  // A lease of a window that ended is worthless; the longest window in use is an hour.
  for (const [key, lease] of leases) if (lease.windowStart < at - 3_600_000) leases.delete(key);
}

interface Lease {
  windowStart: number;
  left: number;
  /** The shared counter after our last lease: what `remaining` is counted from. */
  counted: number;
  /** The counter had nothing left for this window: refuse without asking again. */
  exhausted: boolean;
  taking?: Promise<void>;
}

/** This process's unspent leases on one database: kept beside it, so a rebuilt limiter does not waste them. */
export type LeaseBook = Map<string, Lease>;

export interface RateLimiterOptions {
  db: Database;
  now?: () => Date;
  /** Shared by every limiter of this process on `db` (services keep one per database); a fresh one by default. */
  leases?: LeaseBook;
}

/** Adds `size` to the window's counter; how many of them fit under the limit, and the counter after. */
async function take(db: Database, counterKey: string, windowStart: Date, size: number, limit: number) {
  const [counter] = await db
    .insert(rateLimits)
    .values({ key: counterKey, windowStart, count: size })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when excluded.window_start > ${rateLimits.windowStart} then ${size} else ${rateLimits.count} + ${size} end`,
        windowStart: sql`greatest(excluded.window_start, ${rateLimits.windowStart})`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  if (!counter) throw new Error("The rate limit counter was not returned.");
  // The counter moved by exactly `size`: the calls before ours are count − size.
  const granted = Math.max(0, Math.min(size, limit - (counter.count - size)));
  return { granted, count: counter.count };
}

async function refill(db: Database, lease: Lease, counterKey: string, limit: number): Promise<void> {
  const size = leaseSize(limit);
  // A counter already in a later window (another instance's clock is ahead) counts for ours too, as before.
  const taken = await take(db, counterKey, new Date(lease.windowStart), size, limit);
  lease.left += taken.granted;
  lease.counted = Math.min(limit, taken.count);
  if (taken.granted < size) lease.exhausted = true;
}

/** This window's lease of `leaseKey` (a fresh, empty one when the window changed). */
function currentLease(leases: LeaseBook, leaseKey: string, at: number, windowMs: number): Lease {
  const windowStart = Math.floor(at / windowMs) * windowMs;
  let lease = leases.get(leaseKey);
  if (!lease && leases.size >= MAX_LEASES) forgetPastWindows(leases, at);
  if (!lease || lease.windowStart !== windowStart) {
    lease = { windowStart, left: 0, counted: 0, exhausted: false };
    leases.set(leaseKey, lease);
  }
  return lease;
}

/** A call spent from the lease, a refusal when the window's counter is used up, or undefined: refill first. */
function spendFromLease(
  lease: Lease,
  limit: number,
  at: number,
  windowMs: number,
): RateLimitResult | undefined {
  if (lease.left > 0) {
    lease.left -= 1;
    return {
      allowed: true,
      remaining: Math.max(0, limit - lease.counted + lease.left),
      retryAfterSeconds: 0,
    };
  }
  if (lease.exhausted) {
    const wait = Math.max(1, Math.ceil((lease.windowStart + windowMs - at) / 1000));
    return { allowed: false, remaining: 0, retryAfterSeconds: wait };
  }
  return undefined;
}

export function createRateLimiter({ db, now = () => new Date(), leases = new Map() }: RateLimiterOptions) {
  return {
    async consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
      if (!(Number.isInteger(limit) && limit > 0 && Number.isInteger(windowSeconds) && windowSeconds > 0)) {
        throw new Error("A rate limit needs a positive whole limit and window.");
      }
      const windowMs = windowSeconds * 1000;
      // The key names the window size too, so two limits on one key never share a counter.
      const counterKey = `${key}|${windowSeconds}`;
      // A lease is good for the limit it was taken under only (the limit may change with the configuration).
      const leaseKey = `${counterKey}|${limit}`;
      for (;;) {
        const at = now().getTime();
        const lease = currentLease(leases, leaseKey, at, windowMs);
        const result = spendFromLease(lease, limit, at, windowMs);
        if (result) return result;
        lease.taking ??= refill(db, lease, counterKey, limit).finally(() => {
          lease.taking = undefined;
        });
        await lease.taking;
      }
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

/**
 * One certification run (started directly or by a monitor's "run now") of `userId` in `environment`, counted against
 * CERTIFICATION_RUNS_PER_HOUR across every instance: each run makes a few dozen upstream calls with the server's
 * client and keeps a signed bundle. Over it: 429 `rate_limited` with Retry-After (the end of the hour).
 */
export async function spendCertificationRun(
  limiter: RateLimiter,
  userId: string,
  environment: string,
  limit: number,
): Promise<void> {
  const result = await limiter.consume(
    `certification-runs:${environment}:${userId}`,
    limit,
    RUNS_WINDOW_SECONDS,
  );
  if (result.allowed) return;
  const wait = result.retryAfterSeconds;
  throw new ApiError(
    "rate_limited",
    `You started ${limit} certification runs in ${environment} this hour; try again in ${Math.ceil(wait / 60)} min.`,
    { limit, window_seconds: RUNS_WINDOW_SECONDS, retry_after_seconds: wait },
    { "Retry-After": String(wait) },
  );
}

/**
 * Waits until `userId` may make one more upstream call under RATE_LIMIT_PER_MINUTE, then spends it: for work that
 * pauses rather than fails at the limit (a certification run's calls to a real upstream). `signal` ends the wait.
 */
export async function awaitUpstreamCall(
  limiter: RateLimiter,
  userId: string,
  limit: number,
  signal?: AbortSignal,
): Promise<void> {
  for (;;) {
    const result = await limiter.consume(`upstream:${userId}`, limit, UPSTREAM_WINDOW_SECONDS);
    if (result.allowed) return;
    signal?.throwIfAborted();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, result.retryAfterSeconds * 1000);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}
