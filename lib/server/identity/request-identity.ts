/**
 * Who is calling, and with which session, for one request (routes and server-rendered pages alike):
 * - `none`: the local user with every role;
 * - `oidc`: the user stored in the live session at sign-in (roles recomputed from their groups);
 * - `proxy`: the user the trusted proxy names on this request. A session belongs to one user: when the proxy
 *   names someone else than the session's owner (or nobody), the request gets a fresh, empty session, so user B
 *   never uses user A's credentials or token. A session an administrator ended is answered 401 once (the page
 *   learns it and clears what it kept), then the proxy's headers make a fresh one.
 * A suspended user (lib/server/session/suspensions) is refused in `oidc` and `proxy` alike, on every instance.
 * A page sends the key of the user it was loaded for (`X-Console-User`); when the caller is now someone else
 * (another sign-in in this browser, a proxy that switched users), the call is refused with 409
 * `identity_changed` before it does anything, and the page reloads as the new user: user B's lookup never
 * carries the ticket user A typed.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import { fromTrustedProxy } from "@/lib/server/util/peer-address";
import { emptySession, getSession, type Session, type SessionContext } from "@/lib/server/session";
import { ApiError } from "@/lib/server/util/errors";
import { currentUser, type SignedInUser } from ".";
import { suspendedError, type SuspensionStore } from "@/lib/server/session/suspensions";
import { sessionEndedError } from "./enforce";
import type { AuthSettings } from "./settings";
import { USER_KEY_HEADER, userStorageKey } from "./user-key";

export interface RequestIdentity {
  session: Session;
  user: SignedInUser | null;
  /**
   * Set when the caller is known but this request must be refused before anything is done: an administrator
   * suspended them (403 `user_suspended`), or (proxy) ended the session this cookie named (401 `not_signed_in`,
   * `session_end: "revoked"`, once: the answer removes the cookie, and the next request starts a fresh session).
   */
  refusal?: ApiError;
}

// Composition root: the settings, sessions and suspensions are built once (lib/server/root) and passed in.
export interface IdentityDeps {
  authSettings: AuthSettings;
  sessions: SessionContext;
  suspensions?: SuspensionStore;
}

export async function resolveIdentity(
  request: Pick<Request, "headers" | "url">,
  { authSettings: settings, sessions, suspensions }: IdentityDeps,
): Promise<RequestIdentity> {
  const config = sessions.config;
  let session = await getSession(request, sessions);
  const user = currentUser(settings, {
    request,
    peerIsTrusted: fromTrustedProxy(request, config.trustedProxies),
    sessionUser: session.signedInUser ?? null,
  });
  if (!user) {
    // Signed out (or the proxy named nobody): nothing of any session is used.
    if (session.ownerId !== undefined) session = emptySession(request, sessions);
    return { session, user: null };
  }
  assertSameUser(request, config, user);
  const suspension = settings.mode === "none" ? null : await suspensions?.activeFor(user.id);
  if (suspension) {
    // Nothing of the session is used, and it ends: lifting the suspension does not bring it back.
    if (session.sessionId) await session.end("revoked");
    return { session, user, refusal: suspendedError(suspension) };
  }
  if (settings.mode === "proxy" && session.endReason === "revoked" && session.endedOwnerId === user.id) {
    // The proxy would sign them straight back in: the page must first learn that its session was ended.
    return { session, user, refusal: sessionEndedError("revoked") };
  }
  if (session.ownerId !== undefined && session.ownerId !== user.id) {
    session = emptySession(request, sessions);
  }
  session.setOwner({ id: user.id, roles: user.roles });
  if (settings.mode === "proxy" && isPageSessionRead(request)) session.keepForOwner();
  return { session, user };
}

/**
 * Behind a proxy nobody signs in: a console page open for the user is the sign-in. Every page reads its session
 * once as it loads (`GET /api/session`, naming its user in X-Console-User): that one call stores the session, not
 * each of the page's first calls at once (each would make a row), nor a script's calls (no such header).
 */
function isPageSessionRead(request: Pick<Request, "headers" | "url">): boolean {
  return request.headers.get(USER_KEY_HEADER) !== null && new URL(request.url).pathname === "/api/session";
}
/** 409 `identity_changed` when the page that calls was loaded for another user than the caller now is. */
function assertSameUser(request: Pick<Request, "headers">, config: ServerConfig, user: SignedInUser): void {
  const expected = request.headers.get(USER_KEY_HEADER);
  if (expected === null || expected === userStorageKey(config.authMode, user.id)) return;
  throw new ApiError(
    "identity_changed",
    "You are now signed in as someone else than the user this page was loaded for: reload the page.",
  );
}
