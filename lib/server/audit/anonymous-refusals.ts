/**
 * Refusals of callers who are not signed in, counted in memory per client address and minute instead of one audit
 * row each: a flood of anonymous requests costs no database write per request. Each address and minute becomes one
 * summary row (with the count) once the minute is over, and at shutdown. Past `limitPerMinute` refusals in a minute
 * an address is answered 429 `rate_limited` until the minute ends. Counted per instance: N instances on one
 * PostgreSQL each write their own summary rows, and each allows the limit.
 */
import "server-only";
import { commonestReason, refusalSummaryDetails } from "./refusal-summary";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import type { AuditEntryInput } from "@/lib/server/audit";

const MINUTE_MS = 60_000;
/** Distinct addresses tracked per minute; beyond it they share one bucket (a flood from many addresses). */
const MAX_ADDRESSES = 10_000;
const OVERFLOW_ADDRESS = "(other addresses)";

interface Bucket {
  address: string;
  minute: number;
  count: number;
  throttled: number;
  reasons: Map<string, number>;
  firstPath: string;
}

export interface AnonymousRefusals {
  /** Throws 429 `rate_limited` (with Retry-After) when `address` is over its limit this minute. */
  admit(address: string | null): void;
  /** Counts one refusal of an anonymous caller (instead of writing its own row). */
  count(address: string | null, reason: string, path: string): void;
  /** Writes the summary rows of finished minutes (all minutes with `all`, at shutdown). */
  flush(all?: boolean): Promise<void>;
  close(): Promise<void>;
}

export function createAnonymousRefusals(options: {
  append: (entry: AuditEntryInput) => Promise<unknown>;
  limitPerMinute?: number;
  now?: () => number;
  flushEveryMs?: number;
}): AnonymousRefusals {
  const limit = options.limitPerMinute ?? 60;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();

  const keyOf = (address: string | null, minute: number): [string, string] => {
    const named = address ?? "unknown";
    const key = `${minute}|${named}`;
    if (buckets.has(key) || buckets.size < MAX_ADDRESSES) return [key, named];
    return [`${minute}|${OVERFLOW_ADDRESS}`, OVERFLOW_ADDRESS];
  };

  const bucketFor = (address: string | null, path: string): Bucket => {
    const minute = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
    const [key, named] = keyOf(address, minute);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { address: named, minute, count: 0, throttled: 0, reasons: new Map(), firstPath: path };
      buckets.set(key, bucket);
    }
    return bucket;
  };

  async function flush(all = false): Promise<void> {
    const current = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
    const done = [...buckets].filter(([, bucket]) => all || bucket.minute < current);
    for (const [key] of done) buckets.delete(key);
    await Promise.all(done.map(([, bucket]) => writeSummary(options.append, bucket)));
  }

  const timer = setInterval(() => void flush(), options.flushEveryMs ?? 5_000);
  timer.unref?.();

  return {
    admit(address) {
      const minute = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
      const bucket = buckets.get(keyOf(address, minute)[0]);
      if (!bucket || bucket.count < limit) return;
      throw throttled(limit, Math.max(1, Math.ceil((minute + MINUTE_MS - now()) / 1000)));
    },
    count(address, reason, path) {
      const bucket = bucketFor(address, path);
      bucket.count += 1;
      if (reason === "rate_limited") bucket.throttled += 1;
      bucket.reasons.set(reason, (bucket.reasons.get(reason) ?? 0) + 1);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush(true);
    },
  };
}

/** 429 in the one error shape, as the per-user limit answers it, until the minute ends. */
function throttled(limit: number, wait: number): ApiError {
  return new ApiError(
    "rate_limited",
    `Too many requests without signing in from this address; try again in ${wait} s.`,
    { limit, window_seconds: MINUTE_MS / 1000, retry_after_seconds: wait },
    { "Retry-After": String(wait) },
  );
}

async function writeSummary(append: (entry: AuditEntryInput) => Promise<unknown>, bucket: Bucket) {
  const reason = commonestReason(bucket, "not_signed_in");
  try {
    await append({
      event: "anonymous_refusals",
      outcome: "failure",
      clientAddress: bucket.address,
      reason,
      operation: bucket.firstPath.slice(0, 64),
      details: refusalSummaryDetails(bucket),
    });
  } catch (error) {
    // Never lost: the summary goes to the server log instead.
    logger.error(
      {
        anonymous_refusals: { ...bucket, reasons: Object.fromEntries(bucket.reasons) },
        error: String(error),
      },
      "audit summary row could not be written",
    );
  }
}
