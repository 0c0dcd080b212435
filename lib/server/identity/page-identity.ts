/**
 * The caller as server components see them (the (console) layout): the auth mode, the signed-in user or null,
 * and the /api/me answer, read from the request's headers and cookie without a client round trip. Read once per
 * render (React `cache`): the page gate and the session provider share the one identity and session row check.
 * A page render cannot write cookies, so nothing here changes the session.
 */
import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import type { EnvironmentName, SessionInfo } from "@/lib/shared/contracts";
import type { ServerConfig } from "@/lib/server/config";
import type { Session } from "@/lib/server/session";
import { meResponse, type AuthMode, type MeResponse, type SignedInUser } from "./me";
import { resolveIdentity, type IdentityDeps, type RequestIdentity } from "./request-identity";
import { errorDetails } from "@/lib/shared/error-details";
import { can } from "./roles";
import { userStorageKey } from "./user-key";

export interface PageIdentity {
  mode: AuthMode;
  user: SignedInUser | null;
  me: MeResponse;
  /** An administrator suspended the caller until then (ISO time): the page shows only that. */
  suspendedUntil: string | null;
}

// Composition root: what a page render needs (lib/server/root's ConsoleRoot), passed in by the page.
export interface PageIdentityDeps {
  config: ServerConfig;
  identity(): Promise<IdentityDeps>;
  /** GET /api/session's answer for a session (lib/server/token/session-info `describeSession`). */
  describeSession(session: Session, tokenDetails: (environment: EnvironmentName) => boolean): SessionInfo;
}

/**
 * The render's identity from its incoming headers (the Cookie header among them), read once per render. The
 * page's own address is not known to a server component: PUBLIC_URL's first origin stands in for it, as a
 * proxy's forwarded headers (from a trusted peer) still decide the scheme.
 */
const renderIdentity = cache(async (deps: PageIdentityDeps): Promise<RequestIdentity> => {
  // Reading headers is how Next learns that the page is rendered per request.
  const incoming = await headers();
  const url = `${deps.config.publicOrigins[0] ?? "http://localhost"}/`;
  return resolveIdentity({ url, headers: incoming }, await deps.identity());
});

export async function getPageIdentity(deps: PageIdentityDeps): Promise<PageIdentity> {
  const { config } = deps;
  const { user: caller, refusal } = await renderIdentity(deps);
  // An ended proxy session is left to the page's first call (401 once, which also removes the cookie).
  const suspendedUntil =
    refusal?.code === "user_suspended" ? (errorDetails(refusal, "user_suspended")?.until ?? null) : null;
  const user = suspendedUntil ? null : caller;
  return {
    mode: config.authMode,
    suspendedUntil,
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
  const { session, user, refusal } = await renderIdentity(deps);
  if (!user || refusal?.code === "user_suspended") return null;
  return deps.describeSession(session, (environment) => can(user.roles, "token_details", environment));
}
