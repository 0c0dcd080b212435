/**
 * Active sessions for administrators: who is signed in, since when, from where, last seen; end one, or all of a user's.
 * A session's row id is the bearer credential inside the sealed cookie, so it never leaves the server: each
 * session is named by a handle, a hash of its id.
 */
import "server-only";
import { createHash } from "node:crypto";
import type { SessionStore, StoredSession } from "@/lib/server/session/store";
import type { AdminSession } from "@/lib/shared/admin-contract";

function sessionHandle(id: string): string {
  return createHash("sha256").update(`session-handle:${id}`).digest("base64url").slice(0, 22);
}

function shown(row: StoredSession): AdminSession {
  return {
    id: sessionHandle(row.id),
    user_id: row.userId,
    roles: row.roles,
    signed_in_at: row.createdAt.toISOString(),
    signed_in_from: row.clientAddress,
    last_seen_at: row.lastSeenAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

export async function listSessions(store: SessionStore): Promise<AdminSession[]> {
  return (await store.listLive()).map(shown);
}

/** Ends the live session with this handle; its owner, or null when none is live. */
export async function endSessionByHandle(store: SessionStore, handle: string): Promise<string | null> {
  const row = (await store.listLive()).find((candidate) => sessionHandle(candidate.id) === handle);
  if (!row) return null;
  return (await store.end(row.id, "revoked")) ? row.userId : null;
}
