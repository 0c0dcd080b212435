/**
 * The caller as server components see them (the (console) layout): the auth mode, the signed-in user or null,
 * and the /api/me answer, read from the request's headers and cookie without a client round trip. Read once per
 * render (React `cache`): the page gate and the session provider share the one identity and session row check.
 * A page render cannot write cookies, so nothing here changes the session.
 */
import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import type { SessionInfo } from "@/lib/shared/contracts";
import { sessionCall } from "@/lib/server/inquiry/deps";
import { describeSession } from "@/lib/server/inquiry/operations";
import { getConfig } from "@/lib/server/config";
import { getServices } from "@/lib/server/root/services";
import { meResponse, type AuthMode, type MeResponse, type SignedInUser } from "./me";
import { resolveIdentity, type RequestIdentity } from "./request-identity";
import { can } from "./roles";
import { userStorageKey } from "./user-key";

export interface PageIdentity {
  mode: AuthMode;
  user: SignedInUser | null;
  me: MeResponse;
}

/**
 * The render's identity from its incoming headers (the Cookie header among them). The page's own address is
 * not known to a server component: PUBLIC_URL's first origin stands in for it, as a proxy's forwarded headers
 * (from a trusted peer) still decide the scheme.
 */
const renderIdentity = cache(async (): Promise<RequestIdentity> => {
  // Reading headers is how Next learns that the page is rendered per request.
  const incoming = await headers();
  const config = getConfig();
  const url = `${config.publicOrigins[0] ?? "http://localhost"}/`;
  return resolveIdentity({ url, headers: incoming }, config, await getServices(config));
});

export async function getPageIdentity(): Promise<PageIdentity> {
  const config = getConfig();
  const { user } = await renderIdentity();
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
export async function getPageSessionInfo(): Promise<SessionInfo | null> {
  const { session, user } = await renderIdentity();
  if (!user) return null;
  const { deps, source } = sessionCall(session);
  return describeSession(deps, source, (environment) => can(user.roles, "token_details", environment));
}
