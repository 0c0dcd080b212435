/**
 * Which client credentials a session uses: its own (entered by the user, or the demo profile of the
 * embedded sandbox), else the server's (CARD_API_CLIENT_ID/_SECRET), else none. Only the source and the
 * client_id ever leave the server.
 */
import "server-only";
import { createHash } from "node:crypto";
import type { SessionInfo } from "@/lib/shared/contracts";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import { LruCache } from "@/lib/server/util/lru-cache";
import type { SessionState } from "./schema";

const DEMO_CLIENT_ID = "demo-client";

export interface ResolvedCredentials {
  source: "server" | "session";
  profile?: "demo";
  clientId: string;
  clientSecret: string;
}

export type CredentialsResolution =
  { ok: true; credentials: ResolvedCredentials } | { ok: false; message: string };

export function resolveCredentials(
  state: SessionState,
  config: ServerConfig,
  environment: EnvironmentConfig,
): CredentialsResolution {
  const { credentials } = state;
  if (credentials?.kind === "demo") {
    if (environment.transport !== "embedded") {
      return {
        ok: false,
        message: `The demo profile works only with the embedded sandbox; enter client credentials for ${environment.name}.`,
      };
    }
    return {
      ok: true,
      credentials: {
        source: "session",
        profile: "demo",
        clientId: DEMO_CLIENT_ID,
        clientSecret: config.sandboxDemoSecret,
      },
    };
  }
  if (credentials?.kind === "user") {
    return {
      ok: true,
      credentials: {
        source: "session",
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
      },
    };
  }
  if (config.serverCredentials) {
    return { ok: true, credentials: { source: "server", ...config.serverCredentials } };
  }
  return {
    ok: false,
    message:
      'No client credentials: PUT /api/session/credentials with {client_id, client_secret} or {"profile":"demo"}.',
  };
}

/** What GET /api/session shows about credentials: the source and the client_id, never the secret. */
export function describeCredentials(state: SessionState, config: ServerConfig): SessionInfo["credentials"] {
  const { credentials } = state;
  if (credentials?.kind === "demo") return { source: "session", client_id: DEMO_CLIENT_ID, profile: "demo" };
  if (credentials?.kind === "user") return { source: "session", client_id: credentials.clientId };
  if (config.serverCredentials) return { source: "server", client_id: config.serverCredentials.clientId };
  return { source: "none", client_id: null };
}

/**
 * Binds a token to the credentials and token endpoint that obtained it. A hash, so that the session cookie
 * and in-memory keys never repeat the secret itself.
 */
export function credentialsKey(credentials: ResolvedCredentials, environment: EnvironmentConfig): string {
  const material = [
    environment.transport,
    environment.authUrl,
    credentials.clientId,
    credentials.clientSecret,
  ].join("\0");
  let key = credentialsKeys.get(material);
  if (key === undefined) {
    key = createHash("sha256").update(material).digest("base64url").slice(0, 32);
    credentialsKeys.set(material, key);
  }
  return key;
}

/** Hashing on every call would cost more than the rest of a session read. */
const credentialsKeys = new LruCache<string, string>(256);
