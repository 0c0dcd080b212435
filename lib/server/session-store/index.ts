/**
 * Server-side sessions (DESIGN.md §6): the cookie carries only the session id, and the row decides. Ending a
 * session here ends it on every instance; the idle timeout and the absolute lifetime are checked against the
 * row on every read, and renewals never move `expiresAt`. `now` is injectable for tests.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { Database } from "@/lib/server/db";
import { sessions } from "@/lib/server/db/schema";

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
}

export const END_REASONS = ["signed_out", "revoked", "idle", "expired"] as const;
export type EndReason = (typeof END_REASONS)[number];

function isEndReason(value: string | null): value is EndReason {
  return (END_REASONS as readonly (string | null)[]).includes(value);
}

export function createSessionStore({
  db,
  idleSeconds,
  absoluteSeconds,
  touchEverySeconds = 30,
  now = () => new Date(),
}: SessionStoreOptions) {
  if (!(idleSeconds > 0 && absoluteSeconds > 0)) throw new Error("Session limits must be positive.");
  const clock = () => new Date(now().getTime());

  async function end(id: string, reason: EndReason): Promise<boolean> {
    const ended = await db
      .update(sessions)
      .set({ endedAt: clock(), endReason: reason, idToken: null })
      .where(and(eq(sessions.id, id), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
    return ended.length > 0;
  }

  /** `over`: ended before this call; `reason` says why when the row still tells (a sign-in page can say it). */
  type CheckResult =
    { live: StoredSession } | { endedNow: EndReason; userId: string } | { over: true; reason?: EndReason };

  async function check(id: string): Promise<CheckResult> {
    const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
    if (!row) return { over: true };
    if (row.endedAt) return { over: true, ...(isEndReason(row.endReason) ? { reason: row.endReason } : {}) };
    const at = clock();
    const reason: EndReason | null =
      at.getTime() >= row.expiresAt.getTime()
        ? "expired"
        : at.getTime() - row.lastSeenAt.getTime() >= idleSeconds * 1000
          ? "idle"
          : null;
    if (reason) return (await end(id, reason)) ? { endedNow: reason, userId: row.userId } : { over: true };
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

  return {
    async create(user: {
      userId: string;
      roles: readonly string[];
      idToken?: string;
    }): Promise<StoredSession> {
      const createdAt = clock();
      const session: StoredSession = {
        // 256 random bits: the id is the bearer credential inside the sealed cookie.
        id: randomBytes(32).toString("base64url"),
        userId: user.userId,
        roles: [...user.roles],
        createdAt,
        lastSeenAt: createdAt,
        expiresAt: new Date(createdAt.getTime() + absoluteSeconds * 1000),
        endedAt: null,
        endReason: null,
        idToken: user.idToken ?? null,
      };
      await db.insert(sessions).values(session);
      return session;
    },

    /** The session when it is live (not ended, not idle, not past its lifetime), else null (and it is ended). */
    async getIfLive(id: string): Promise<StoredSession | null> {
      const result = await check(id);
      return "live" in result ? result.live : null;
    },

    /**
     * Like `getIfLive`, and says why not: `endedNow` when this call found it idle or expired and ended it (exactly
     * one caller on any instance sees that, for the audit log), `over` when it had ended before or never existed.
     */
    check,

    /** Sign-out or revocation; true when the session was live until now. The ID token is dropped with it. */
    end,

    /** The provider's ID token of a live session (for the sign-out hint), else null. */
    async idToken(id: string): Promise<string | null> {
      const [row] = await db
        .select({ idToken: sessions.idToken })
        .from(sessions)
        .where(and(eq(sessions.id, id), isNull(sessions.endedAt)));
      return row?.idToken ?? null;
    },

    /** The live sessions (not ended, not idle, not past their lifetime), most recently seen first. */
    async listLive(limit = 500): Promise<StoredSession[]> {
      const at = clock();
      return db
        .select()
        .from(sessions)
        .where(
          and(
            isNull(sessions.endedAt),
            gt(sessions.expiresAt, at),
            gt(sessions.lastSeenAt, new Date(at.getTime() - idleSeconds * 1000)),
          ),
        )
        .orderBy(desc(sessions.lastSeenAt))
        .limit(limit);
    },

    /** Ends every live session of a user (e.g. roles withdrawn); returns how many. */
    async endAllForUser(userId: string, reason: EndReason = "revoked"): Promise<number> {
      const ended = await db
        .update(sessions)
        .set({ endedAt: clock(), endReason: reason, idToken: null })
        .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)))
        .returning({ id: sessions.id });
      return ended.length;
    },

    /** Deletes sessions that ended, or expired, more than `keepSeconds` ago; returns how many. */
    async purgeExpired(keepSeconds = 0): Promise<number> {
      const before = new Date(clock().getTime() - keepSeconds * 1000);
      const idleBefore = new Date(before.getTime() - idleSeconds * 1000);
      const purged = await db
        .delete(sessions)
        .where(
          or(
            lt(sessions.endedAt, before),
            lt(sessions.expiresAt, before),
            lt(sessions.lastSeenAt, idleBefore),
          ),
        )
        .returning({ id: sessions.id });
      return purged.length;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
