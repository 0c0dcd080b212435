/**
 * Live session rows kept in memory, trusted only while the change feed is live and only from the feed's current
 * generation: an end delivered by the feed drops its row at once, and a row read while an end was being
 * delivered (the feed's epoch moved during the read) is not kept, since it may predate that end.
 */
import "server-only";
import { createHash } from "node:crypto";
import type { ChangeFeed } from "@/lib/server/database/change-feed";
import { LruCache } from "@/lib/server/util/lru-cache";
import type { StoredSession } from "./store";

/** Rows kept at most; the least recently used go first (a miss only costs the database read). */
const CAPACITY = 10_000;

/** The feed's name for a session: SHA-256 of its id (the id is a bearer credential; it never leaves the row). */
export function feedKey(id: string): string {
  return createHash("sha256").update(id, "utf8").digest("hex");
}

export interface ReadTicket {
  epoch: number;
  generation: number;
}

export function createSessionCache(feed: ChangeFeed) {
  const rows = new LruCache<string, { row: StoredSession; generation: number }>(CAPACITY);
  const ids = new Map<string, string>();
  const drop = (key: string) => {
    const id = ids.get(key);
    if (id === undefined) return;
    ids.delete(key);
    rows.delete(id);
  };
  feed.subscribe(drop);
  return {
    get(id: string): StoredSession | undefined {
      if (!feed.live()) return undefined;
      const entry = rows.get(id);
      if (!entry) return undefined;
      if (entry.generation === feed.generation()) return entry.row;
      rows.delete(id);
      return undefined;
    },
    startRead: (): ReadTicket => ({ epoch: feed.epoch(), generation: feed.generation() }),
    set(id: string, row: StoredSession, ticket: ReadTicket): void {
      if (!feed.live() || feed.epoch() !== ticket.epoch || feed.generation() !== ticket.generation) return;
      if (rows.size >= CAPACITY) {
        ids.clear();
        rows.clear();
      }
      rows.set(id, { row, generation: ticket.generation });
      ids.set(feedKey(id), id);
    },
    delete(id: string): void {
      rows.delete(id);
      ids.delete(feedKey(id));
    },
  };
}
