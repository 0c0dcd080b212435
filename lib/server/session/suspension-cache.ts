/**
 * Each user's suspension (or its absence) kept in memory, so that a signed-in call does not ask the database
 * whether its caller is suspended. Trusted on the same terms as the session cache: only while the change feed is
 * live and from its current generation. Suspending and lifting announce themselves on the feed (committed with
 * the row, on PostgreSQL), and any such notice empties the cache on every instance; a read that saw the feed move
 * is not kept, since it may predate the change. A suspension that runs out needs no notice: its `until` is read
 * against the clock on every use.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { ChangeFeed } from "@/lib/server/database/change-feed";
import { LruCache } from "@/lib/server/util/lru-cache";
import type { Suspension } from "./suspensions";

/** Users kept at most; only signed-in callers are looked up, and a miss only costs the database read. */
const CAPACITY = 10_000;

const SUSPENSION_NOTICE_PREFIX = "suspension:";

/** A notice of its own for each change, so that waiting for its delivery waits for this one. */
export const suspensionNotice = (): string => `${SUSPENSION_NOTICE_PREFIX}${randomUUID()}`;

export function createSuspensionCache(feed: ChangeFeed) {
  const users = new LruCache<string, { suspension: Suspension | null; generation: number }>(CAPACITY);
  feed.subscribe((payload) => {
    if (payload.startsWith(SUSPENSION_NOTICE_PREFIX)) users.clear();
  });
  return {
    /** The cached answer (a suspension or null), or undefined when the database must be asked. */
    get(userId: string): { suspension: Suspension | null } | undefined {
      if (!feed.live()) return undefined;
      const entry = users.get(userId);
      if (!entry || entry.generation !== feed.generation()) return undefined;
      return entry;
    },
    /** Runs `read` and keeps its answer unless the feed moved meanwhile. */
    async read(userId: string, read: () => Promise<Suspension | null>): Promise<Suspension | null> {
      const ticket = { epoch: feed.epoch(), generation: feed.generation() };
      const suspension = await read();
      if (feed.live() && feed.epoch() === ticket.epoch && feed.generation() === ticket.generation)
        users.set(userId, { suspension, generation: ticket.generation });
      return suspension;
    },
  };
}
