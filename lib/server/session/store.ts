/**
 * Server-side sessions (docs/design.md §6): the cookie carries only the session id, and the row decides. Ending a
 * session here ends it on every instance; the idle timeout and the absolute lifetime are checked against the
 * row on every read, and renewals never move `expiresAt`. `now` is injectable for tests.
 *
 * With a change feed (lib/server/database/change-feed), live rows are kept in memory and a call that needs no touch
 * reads no row: every end is delivered to every instance's feed, and while the feed is down the row is read
 * from the database as before. Only live rows are cached; an idle, expired or due-for-touch row is always
 * decided by the database.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { SESSION_ENDED_CHANNEL, type ChangeFeed } from "@/lib/server/database/change-feed";
import { sessions } from "@/lib/server/database/schema";
import { createSessionCache, feedKey } from "./store-cache";

export interface StoredSession {
  id: string;
  userId: string;
  roles: string[];
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  endReason: string | null;
  /** AUTH_MODE=oidc: the provider's ID token, kept only here (never in the cookie) for the sign-out hint. */
  idToken: string | null;
  /** Where the session began (the client address the console believed), for the administrators' list. */
  clientAddress: string | null;
}

export interface SessionStoreOptions {
  db: Database;
  /** SESSION_IDLE_SECONDS: a session unused this long is over. */
  idleSeconds: number;
  /** SESSION_TTL_SECONDS: a session is over this long after it began, however active. */
  absoluteSeconds: number;
  /** `lastSeenAt` is written at most this often per session (fewer writes; the idle check is that much coarser). */
  touchEverySeconds?: number;
  now?: () => Date;
  /** Session ends from every instance: with one, live rows are served from memory. */
  feed?: ChangeFeed;
}

const END_REASONS = ["signed_out", "revoked", "idle", "expired"] as const;
export type EndReason = (typeof END_REASONS)[number];

function isEndReason(value: string | null): value is EndReason {
  return (END_REASONS as readonly (string | null)[]).includes(value);
}

/** What every operation of one store reads: the database, the limits, the clock and the live-row cache. */
interface StoreState {
  db: Database;
  idleSeconds: number;
  absoluteSeconds: number;
  touchEverySeconds: number;
  clock: () => Date;
  feed: ChangeFeed | undefined;
  cache: ReturnType<typeof createSessionCache> | undefined;
}

/** `over`: ended before this call; `reason` says why when the row still tells (a sign-in page can say it). */
type CheckResult =
  { live: StoredSession } | { endedNow: EndReason; userId: string } | { over: true; reason?: EndReason };

/**
 * Ends the sessions `where` selects; on PostgreSQL the NOTIFY goes in the same transaction, so the end and
 * its notice commit together. Waits (briefly) until this instance's feed delivered it: every instance's
 * LISTEN connection was sent it by then.
 */
async function endWhere(
  state: StoreState,
  where: ReturnType<typeof and>,
  reason: EndReason,
): Promise<string[]> {
  const { db, feed, clock } = state;
  const update = (tx: Database) =>
    tx
      .update(sessions)
      .set({ endedAt: clock(), endReason: reason, idToken: null })
      .where(where)
      .returning({ id: sessions.id });
  if (feed?.kind !== "notify") {
    const ended = (await update(db)).map((row) => row.id);
    for (const id of ended) feed?.publishLocally(feedKey(id));
    return ended;
  }
  const ended = await db.transaction(async (tx) => {
    const rows = (await update(tx as unknown as Database)).map((row) => row.id);
    if (rows.length > 0)
      await tx.execute(
        sql`select pg_notify(${SESSION_ENDED_CHANNEL}, encode(sha256(convert_to(id, 'UTF8')), 'hex'))
            from ${sessions} where ${inArray(sessions.id, rows)}`,
      );
    return rows;
  });
  for (const id of ended) feed.publishLocally(feedKey(id));
  await Promise.all(ended.map((id) => feed.delivered(feedKey(id), 500)));
  return ended;
}

async function endSession(state: StoreState, id: string, reason: EndReason): Promise<boolean> {
  const ended = await endWhere(state, and(eq(sessions.id, id), isNull(sessions.endedAt)), reason);
  return ended.length > 0;
}

/** The cached row when it is live and needs no touch now; else undefined (the database decides). */
function fromCache(state: StoreState, id: string): StoredSession | undefined {
  const row = state.cache?.get(id);
  if (!row) return undefined;
  const at = state.clock().getTime();
  const fresh =
    at < row.expiresAt.getTime() &&
    at - row.lastSeenAt.getTime() < Math.min(state.idleSeconds, state.touchEverySeconds) * 1000;
  return fresh ? row : undefined;
}

async function checkSession(state: StoreState, id: string): Promise<CheckResult> {
  const cached = fromCache(state, id);
  if (cached) return { live: cached };
  const { cache } = state;
  const reading = cache?.startRead();
  const result = await checkInDatabase(state, id);
  if (cache && reading) {
    if ("live" in result) cache.set(id, result.live, reading);
    else cache.delete(id);
  }
  return result;
}

async function checkInDatabase(state: StoreState, id: string): Promise<CheckResult> {
  const { db, idleSeconds, touchEverySeconds } = state;
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  if (!row) return { over: true };
  if (row.endedAt) return { over: true, ...(isEndReason(row.endReason) ? { reason: row.endReason } : {}) };
  const at = state.clock();
  const reason: EndReason | null =
    at.getTime() >= row.expiresAt.getTime()
      ? "expired"
      : at.getTime() - row.lastSeenAt.getTime() >= idleSeconds * 1000
        ? "idle"
        : null;
  if (reason)
    return (await endSession(state, id, reason)) ? { endedNow: reason, userId: row.userId } : { over: true };
  if (at.getTime() - row.lastSeenAt.getTime() >= touchEverySeconds * 1000) {
    // Only forward, and only while live: a concurrent sign-out is never undone.
    await db
      .update(sessions)
      .set({ lastSeenAt: at })
      .where(and(eq(sessions.id, id), isNull(sessions.endedAt), lt(sessions.lastSeenAt, at)));
    return { live: { ...row, lastSeenAt: at } };
  }
  return { live: row };
}

interface NewSession {
  userId: string;
  roles: readonly string[];
  idToken?: string;
  clientAddress?: string | null;
}

async function createSession(state: StoreState, user: NewSession): Promise<StoredSession> {
  const createdAt = state.clock();
  const session: StoredSession = {
    // 256 random bits: the id is the bearer credential inside the sealed cookie.
    id: randomBytes(32).toString("base64url"),
    userId: user.userId,
    roles: [...user.roles],
    createdAt,
    lastSeenAt: createdAt,
    expiresAt: new Date(createdAt.getTime() + state.absoluteSeconds * 1000),
    endedAt: null,
    endReason: null,
    idToken: user.idToken ?? null,
    clientAddress: user.clientAddress ?? null,
  };
  await state.db.insert(sessions).values(session);
  return session;
}

async function idTokenOf(state: StoreState, id: string): Promise<string | null> {
  const [row] = await state.db
    .select({ idToken: sessions.idToken })
    .from(sessions)
    .where(and(eq(sessions.id, id), isNull(sessions.endedAt)));
  return row?.idToken ?? null;
}

function listLiveSessions(state: StoreState, limit: number): Promise<StoredSession[]> {
  const at = state.clock();
  return state.db
    .select()
    .from(sessions)
    .where(
      and(
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, at),
        gt(sessions.lastSeenAt, new Date(at.getTime() - state.idleSeconds * 1000)),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt))
    .limit(limit);
}

async function purgeSessions(state: StoreState, keepSeconds: number): Promise<number> {
  const before = new Date(state.clock().getTime() - keepSeconds * 1000);
  const idleBefore = new Date(before.getTime() - state.idleSeconds * 1000);
  const purged = await state.db
    .delete(sessions)
    .where(
      or(lt(sessions.endedAt, before), lt(sessions.expiresAt, before), lt(sessions.lastSeenAt, idleBefore)),
    )
    .returning({ id: sessions.id });
  return purged.length;
}

export function createSessionStore({
  db,
  idleSeconds,
  absoluteSeconds,
  touchEverySeconds = 30,
  now = () => new Date(),
  feed,
}: SessionStoreOptions) {
  if (!(idleSeconds > 0 && absoluteSeconds > 0)) throw new Error("Session limits must be positive.");
  const state: StoreState = {
    db,
    idleSeconds,
    absoluteSeconds,
    touchEverySeconds,
    clock: () => new Date(now().getTime()),
    feed,
    cache: feed ? createSessionCache(feed) : undefined,
  };
  return {
    create: (user: NewSession): Promise<StoredSession> => createSession(state, user),

    /**
     * A live session of `userId` made from `clientAddress` in the last `withinSeconds`: behind a proxy, the calls a
     * page makes before its first answer set the cookie (the session read, a lookup) share one row, not one each.
     */
    async recentFor(userId: string, clientAddress: string | null, withinSeconds: number) {
      const since = new Date(state.clock().getTime() - withinSeconds * 1000);
      const [row] = await state.db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.userId, userId),
            clientAddress === null
              ? isNull(sessions.clientAddress)
              : eq(sessions.clientAddress, clientAddress),
            isNull(sessions.endedAt),
            gt(sessions.createdAt, since),
          ),
        )
        .orderBy(desc(sessions.createdAt))
        .limit(1);
      return row ?? null;
    },

    /** The session when it is live (not ended, not idle, not past its lifetime), else null (and it is ended). */
    async getIfLive(id: string): Promise<StoredSession | null> {
      const result = await checkSession(state, id);
      return "live" in result ? result.live : null;
    },

    /**
     * Like `getIfLive`, and says why not: `endedNow` when this call found it idle or expired and ended it (exactly
     * one caller on any instance sees that, for the audit log), `over` when it had ended before or never existed.
     */
    check: (id: string): Promise<CheckResult> => checkSession(state, id),

    /** Sign-out or revocation; true when the session was live until now. The ID token is dropped with it. */
    end: (id: string, reason: EndReason): Promise<boolean> => endSession(state, id, reason),

    /** The provider's ID token of a live session (for the sign-out hint), else null. */
    idToken: (id: string): Promise<string | null> => idTokenOf(state, id),

    /** The live sessions (not ended, not idle, not past their lifetime), most recently seen first. */
    listLive: (limit = 500): Promise<StoredSession[]> => listLiveSessions(state, limit),

    /** Ends every live session of a user (e.g. roles withdrawn); returns how many. */
    async endAllForUser(userId: string, reason: EndReason = "revoked"): Promise<number> {
      const ended = await endWhere(state, and(eq(sessions.userId, userId), isNull(sessions.endedAt)), reason);
      return ended.length;
    },

    /** Deletes sessions that ended, or expired, more than `keepSeconds` ago; returns how many. */
    purgeExpired: (keepSeconds = 0): Promise<number> => purgeSessions(state, keepSeconds),
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
