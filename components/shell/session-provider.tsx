import "server-only";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { SWRConfig } from "swr";
import type { SessionInfo } from "@/lib/api/contracts";
import { currentEnvironment, describeEnvironments } from "@/lib/card-api/environments";
import { tokenMetadata } from "@/lib/card-api/token-metadata";
import { apiKeys } from "@/lib/client/api-keys";
import { getConfig } from "@/lib/config";
import { logger } from "@/lib/logger";
import { getSession, type SessionState } from "@/lib/session";
import { credentialsKey, describeCredentials, resolveCredentials } from "@/lib/session/credentials";

/**
 * Renders the page with the session already known (what GET /api/session would answer), so that the
 * header and the pages paint their real state at once instead of a skeleton that then jumps. The same
 * SessionInfo as the API: no secret, no token. The browser still revalidates it through SWR.
 */
/**
 * What `describeSession` (lib/card-api/operations.ts) answers, built from the same pieces but without
 * creating a card API client: a client made in this page bundle would be shared (globalThis) with the
 * route handlers, whose `instanceof` checks of its errors would then fail across bundles.
 */
function describeState(state: SessionState): SessionInfo {
  const config = getConfig();
  const environment = currentEnvironment(config, state.environment);
  const resolution = resolveCredentials(state, config, environment);
  const token =
    state.token &&
    resolution.ok &&
    state.token.credentialsKey === credentialsKey(resolution.credentials, environment)
      ? tokenMetadata(state.token)
      : null;
  return {
    environment: environment.name,
    environments: describeEnvironments(config),
    credentials: describeCredentials(state, config),
    token,
  };
}

async function currentSessionInfo(): Promise<SessionInfo | null> {
  // Outside the try: reading headers is how Next.js learns that the page is rendered per request.
  const incoming = await headers();
  try {
    // getSession reads a Request: the cookie, and the protocol (X-Forwarded-Proto, set by Next.js).
    const request = new Request("http://console.invalid/", { headers: new Headers(incoming) });
    return describeState((await getSession(request)).state);
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : "unknown" }, "session not pre-rendered");
    return null;
  }
}

export async function SessionProvider({ children }: { children: ReactNode }) {
  const session = await currentSessionInfo();
  return (
    <SWRConfig value={{ fallback: session ? { [apiKeys.session]: session } : {} }}>{children}</SWRConfig>
  );
}
