import "server-only";
import { LOCAL_USER } from "@/lib/server/identity";
import { meResponse, type AuthMode, type MeResponse } from "@/lib/server/identity/me";
import { getPageIdentity } from "@/lib/server/identity/page-identity";
import { userStorageKey } from "@/lib/server/identity/user-key";
import { consoleRoot } from "@/lib/server/root";
import { logger } from "@/lib/server/util/logger";

/** What the shell renders for this visitor. */
export type PageGate =
  /** `idleSeconds`: SESSION_IDLE_SECONDS when a session's end signs the user out (oidc); null otherwise. */
  | { kind: "console"; me: MeResponse; idleSeconds: number | null }
  | { kind: "sign_in"; mode: Exclude<AuthMode, "none">; provider: string | null }
  | { kind: "no_role"; me: MeResponse }
  | { kind: "suspended"; until: string }
  | { kind: "unavailable" };

/** The issuer's host: what the sign-in button says when OIDC_DISPLAY_NAME does not name the provider. */
function providerName(issuer: string | undefined): string | null {
  if (!issuer) return null;
  try {
    return new URL(issuer).host;
  } catch {
    return null;
  }
}

/** Decides on the server, before anything is painted, whether the visitor sees the console or a gate. */
export async function pageGate(): Promise<PageGate> {
  // Composition root: the page reaches the process's root and passes it down.
  const root = consoleRoot();
  const { config } = root;
  let me: MeResponse;
  try {
    const identity = await getPageIdentity(root);
    if (identity.suspendedUntil) return { kind: "suspended", until: identity.suspendedUntil };
    me = identity.me;
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : "unknown" }, "identity not pre-rendered");
    // One person on their own machine is the local user whatever the storage says; a team console shows
    // nothing it cannot attribute.
    if (config.authMode !== "none") return { kind: "unavailable" };
    me = meResponse(
      LOCAL_USER,
      "none",
      config.environments.map(({ name }) => name),
      userStorageKey,
    );
  }
  if (!me.user) {
    if (config.authMode === "none") return { kind: "unavailable" };
    return {
      kind: "sign_in",
      mode: config.authMode,
      provider: config.oidc?.displayName ?? providerName(config.oidc?.issuer),
    };
  }
  if (me.user.roles.length === 0) return { kind: "no_role", me };
  return {
    kind: "console",
    me,
    // Only a sign-in (oidc) ends with its session: behind a proxy the next call is identified again.
    idleSeconds: config.authMode === "oidc" ? config.sessionIdleSeconds : null,
  };
}
