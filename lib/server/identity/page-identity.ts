/**
 * The caller as server components see them (the (console) layout): the auth mode, the signed-in user or null,
 * and the /api/me answer, read from the request's headers and cookie without a client round trip. A page render
 * cannot write cookies, so nothing here changes the session.
 */
import "server-only";
import { headers } from "next/headers";
import type { EnvironmentName, SessionInfo } from "@/lib/shared/contracts";
import type { ServerConfig } from "@/lib/server/config";
import type { Session } from "@/lib/server/session";
import { meResponse, type AuthMode, type MeResponse, type SignedInUser } from "./me";
import { resolveIdentity, type IdentityDeps, type RequestIdentity } from "./request-identity";
import { can } from "./roles";
import { userStorageKey } from "./user-key";

export interface PageIdentity {
  mode: AuthMode;
  user: SignedInUser | null;
  me: MeResponse;
}

// Composition root: what a page render needs (lib/server/root's ConsoleRoot), passed in by the page.
export interface PageIdentityDeps {
  config: ServerConfig;
  identity(): Promise<IdentityDeps>;
  /** GET /api/session's answer for a session (lib/server/inquiry/operations `describeSession`). */
  describeSession(session: Session, tokenDetails: (environment: EnvironmentName) => boolean): SessionInfo;
}

async function pageRequestIdentity(deps: PageIdentityDeps): Promise<RequestIdentity> {
  // Reading headers is how Next learns that the page is rendered per request.
  const incoming = await headers();
  const origin = deps.config.publicOrigins[0] ?? "http://localhost";
  const request = new Request(`${origin}/`, { headers: new Headers(incoming) });
  return resolveIdentity(request, await deps.identity());
}

export async function getPageIdentity(deps: PageIdentityDeps): Promise<PageIdentity> {
  const { config } = deps;
  const { user } = await pageRequestIdentity(deps);
  return {
    mode: config.authMode,
    user,
    me: meResponse(
      user,
      config.authMode,
      config.environments.map(({ name }) => name),
      userStorageKey,
    ),
  };
}

/** What GET /api/session would answer this caller (token details only for roles that may see them), or null. */
export async function getPageSessionInfo(deps: PageIdentityDeps): Promise<SessionInfo | null> {
  const { session, user } = await pageRequestIdentity(deps);
  if (!user) return null;
  return deps.describeSession(session, (environment) => can(user.roles, "token_details", environment));
}
