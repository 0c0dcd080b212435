/**
 * Refusals of a signed-in caller (401/403/409/429), aggregated as the anonymous ones are (./anonymous-refusals): the
 * first refusal of a user on a route in a minute is its own `refused` row, written at once as before; the rest of
 * that minute are counted in memory and written as one `refused` row with their count once the minute is over (and
 * at shutdown). Past `limitPerMinute` refusals in a minute a user is answered 429 `rate_limited` until the minute
 * ends, before anything else is done for them. A user with no role, or a suspended user whose page keeps polling,
 * so writes at most two rows per route and minute instead of one per request. Counted per instance.
 */
import "server-only";
import { commonestReason, refusalSummaryDetails } from "./refusal-summary";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import type { AuditCaller, AuditFields } from "./record";

const MINUTE_MS = 60_000;
/** Users × routes tracked per minute; past it a refusal is written on its own (never lost, only not merged). */
const MAX_BUCKETS = 10_000;

interface Bucket {
  caller: AuditCaller;
  route: string;
  minute: number;
  /** Refusals after the first (which has its own row). */
  count: number;
  throttled: number;
  reasons: Map<string, number>;
  environment: string | null;
}

export interface UserRefusals {
  /** Throws 429 `rate_limited` (with Retry-After) when `userId` is over its limit of refusals this minute. */
  admit(userId: string): void;
  /**
   * Counts one refusal of `caller` on `route`: true when it is the first of this user, route and minute (the caller
   * writes its row now), false when it was counted into the minute's summary row.
   */
  note(caller: AuditCaller, route: string, reason: string, environment: string | null): boolean;
  /** Writes the summary rows of finished minutes (all minutes with `all`, at shutdown). */
  flush(all?: boolean): Promise<void>;
  close(): Promise<void>;
}

export function createUserRefusals(options: {
  write: (caller: AuditCaller, fields: AuditFields) => Promise<unknown>;
  limitPerMinute?: number;
  now?: () => number;
  flushEveryMs?: number;
}): UserRefusals {
  const limit = options.limitPerMinute ?? 60;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  /** Refusals per user in the current minute (the first of each route included). */
  const perUser = new Map<string, { minute: number; count: number }>();
  const minuteNow = () => Math.floor(now() / MINUTE_MS) * MINUTE_MS;

  async function flush(all = false): Promise<void> {
    const current = minuteNow();
    const done = [...buckets].filter(([, bucket]) => all || bucket.minute < current);
    for (const [key] of done) buckets.delete(key);
    for (const [user, counted] of perUser) if (all || counted.minute < current) perUser.delete(user);
    const summaries = done.map(([, bucket]) => bucket).filter((bucket) => bucket.count > 0);
    await Promise.all(summaries.map((bucket) => writeSummary(options.write, bucket)));
  }

  const timer = setInterval(() => void flush(), options.flushEveryMs ?? 5_000);
  timer.unref?.();

  return {
    admit(userId) {
      const minute = minuteNow();
      const counted = perUser.get(userId);
      if (!counted || counted.minute !== minute || counted.count < limit) return;
      throw throttled(limit, Math.max(1, Math.ceil((minute + MINUTE_MS - now()) / 1000)));
    },
    note(caller, route, reason, environment) {
      const minute = minuteNow();
      const userId = caller.userId ?? "";
      const counted = perUser.get(userId);
      if (counted?.minute === minute) counted.count += 1;
      else perUser.set(userId, { minute, count: 1 });
      const key = `${minute}|${userId}|${route}`;
      const bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= MAX_BUCKETS) return true;
        buckets.set(key, { caller, route, minute, count: 0, throttled: 0, reasons: new Map(), environment });
        return true;
      }
      bucket.count += 1;
      if (reason === "rate_limited") bucket.throttled += 1;
      bucket.reasons.set(reason, (bucket.reasons.get(reason) ?? 0) + 1);
      return false;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush(true);
    },
  };
}

/** 429 in the one error shape, as the per-user upstream limit answers it, until the minute ends. */
function throttled(limit: number, wait: number): ApiError {
  return new ApiError(
    "rate_limited",
    `More than ${limit} of your requests were refused in a minute; try again in ${wait} s.`,
    { limit, window_seconds: MINUTE_MS / 1000, retry_after_seconds: wait },
    { "Retry-After": String(wait) },
  );
}

async function writeSummary(
  write: (caller: AuditCaller, fields: AuditFields) => Promise<unknown>,
  bucket: Bucket,
): Promise<void> {
  const reason = commonestReason(bucket, "refused");
  try {
    await write(bucket.caller, {
      event: "refused",
      outcome: "failure",
      reason,
      operation: bucket.route.slice(0, 64),
      environment: bucket.environment as AuditFields["environment"],
      details: refusalSummaryDetails(bucket),
    });
  } catch (error) {
    // Never lost: the summary goes to the server log instead.
    logger.error(
      { refusals: { ...bucket, reasons: Object.fromEntries(bucket.reasons) }, error: String(error) },
      "audit summary row could not be written",
    );
  }
}
