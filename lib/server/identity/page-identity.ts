/**
 * The caller as server components see them (the (console) layout): the auth mode, the signed-in user or null,
 * and the /api/me answer, read from the request's headers and cookie without a client round trip. A page render
 * cannot write cookies, so nothing here changes the session.
 */
import "server-only";
import { headers } from "next/headers";
import type { SessionInfo } from "@/lib/shared/contracts";
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

async function pageRequestIdentity(): Promise<RequestIdentity> {
  // Reading headers is how Next learns that the page is rendered per request.
  const incoming = await headers();
  const config = getConfig();
  const origin = config.publicOrigins[0] ?? "http://localhost";
  const request = new Request(`${origin}/`, { headers: new Headers(incoming) });
  return resolveIdentity(request, config, await getServices(config));
}

export async function getPageIdentity(): Promise<PageIdentity> {
  const config = getConfig();
  const { user } = await pageRequestIdentity();
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
  const { session, user } = await pageRequestIdentity();
  if (!user) return null;
  return describeSession(session, (environment) => can(user.roles, "token_details", environment));
}
