/**
 * Which client credentials pay for a call: the session's own (entered by the user, or the demo profile of the
 * embedded sandbox), else the server's (CARD_API_CLIENT_ID/_SECRET), else none. Only the source and the
 * client_id ever leave the server.
 */
import "server-only";
import { createHash } from "node:crypto";
import type { SessionInfo } from "@/lib/shared/contracts";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import type { SessionState } from "@/lib/server/session";
import { LruCache } from "@/lib/server/util/lru-cache";

const DEMO_CLIENT_ID = "demo-client";

/** The client credentials of a call, with the key that binds its tokens to them and their token endpoint. */
export interface Credentials {
  source: "server" | "session";
  profile?: "demo";
  clientId: string;
  clientSecret: string;
  key: string;
}

type CredentialsState = Pick<SessionState, "credentials">;

/** The credentials `state` uses in `environment`, or why it has none (the message of 400 `no_credentials`). */
export function resolveCredentials(
  state: CredentialsState,
  config: ServerConfig,
  environment: EnvironmentConfig,
): Credentials | string {
  const { credentials } = state;
  if (credentials?.kind === "demo") {
    if (environment.transport !== "embedded") {
      return `The demo profile works only with the embedded sandbox; enter client credentials for ${environment.name}.`;
    }
    return bound(
      {
        source: "session",
        profile: "demo",
        clientId: DEMO_CLIENT_ID,
        clientSecret: config.sandboxDemoSecret,
      },
      environment,
    );
  }
  if (credentials?.kind === "user") {
    const { clientId, clientSecret } = credentials;
    return bound({ source: "session", clientId, clientSecret }, environment);
  }
  if (config.serverCredentials) return bound({ source: "server", ...config.serverCredentials }, environment);
  return 'No client credentials: PUT /api/session/credentials with {client_id, client_secret} or {"profile":"demo"}.';
}

/** Credentials with the key binding their tokens to `environment`'s token endpoint. */
export function bound(credentials: Omit<Credentials, "key">, environment: EnvironmentConfig): Credentials {
  return { ...credentials, key: credentialsKey(credentials, environment) };
}

/** What GET /api/session shows about credentials: the source and the client_id, never the secret. */
export function describeCredentials(
  state: CredentialsState,
  config: ServerConfig,
): SessionInfo["credentials"] {
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
function credentialsKey(
  credentials: Pick<Credentials, "clientId" | "clientSecret">,
  environment: EnvironmentConfig,
): string {
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
