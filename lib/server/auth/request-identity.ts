/**
 * Who is calling, and with which session, for one request (routes and server-rendered pages alike):
 * - `none`: the local user with every role;
 * - `oidc`: the user stored in the live session at sign-in (roles recomputed from their groups);
 * - `proxy`: the user the trusted proxy names on this request. A session belongs to one user: when the proxy
 *   names someone else than the session's owner (or nobody), the request gets a fresh, empty session, so user B
 *   never uses user A's credentials or token.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import { authSettings } from "@/lib/server/config/auth-settings";
import { fromTrustedProxy } from "@/lib/server/http/peer-address";
import type { Services } from "@/lib/server/services";
import { emptySession, getSession, type Session } from "@/lib/server/session";
import { currentUser, type SignedInUser } from "./index";

export interface RequestIdentity {
  session: Session;
  user: SignedInUser | null;
}

export async function resolveIdentity(
  request: Request,
  config: ServerConfig,
  services: Services,
): Promise<RequestIdentity> {
  const settings = authSettings(config);
  let session = await getSession(request, services.sessionStore);
  const user = currentUser(settings, {
    request,
    peerIsTrusted: fromTrustedProxy(request, config.trustedProxies),
    sessionUser: session.signedInUser ?? null,
  });
  if (!user) {
    // Signed out (or the proxy named nobody): nothing of any session is used.
    if (session.ownerId !== undefined) session = emptySession(request, services.sessionStore);
    return { session, user: null };
  }
  if (session.ownerId !== undefined && session.ownerId !== user.id) {
    session = emptySession(request, services.sessionStore);
  }
  session.setOwner({ id: user.id, roles: user.roles });
  return { session, user };
}
