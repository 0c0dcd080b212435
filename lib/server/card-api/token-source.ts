/**
 * The credentials port of every authorized call: where the calls go, with which credentials, and where the
 * token lives between calls. Resolved once per call by its provider (the cookie session, a support batch, a
 * certification run), so the code that drives the token lifecycle never reads a session or a configuration.
 */
import "server-only";
import type { EnvironmentConfig } from "@/lib/server/config";
import type { AccessToken } from "@/lib/server/session";
import {
  credentialsKey,
  type CredentialsResolution,
  type ResolvedCredentials,
} from "@/lib/server/session/credentials";
import { ApiError } from "@/lib/server/util/errors";
import type { CardApiClient } from "./client";
import type { TokenContext } from "./token-broker";

/** The credentials of a source with the key that binds tokens to them, or why there are none. */
export type SourceCredentials =
  { ok: true; credentials: ResolvedCredentials; key: string } | { ok: false; message: string };

export interface TokenSource {
  /** The environment every call of this source goes to. */
  readonly environment: EnvironmentConfig;
  readonly credentials: SourceCredentials;
  /** The token the source holds, whichever credentials obtained it (the broker checks the binding). */
  current(): AccessToken | undefined;
  /** Keeps a token obtained for these credentials, for the source's next call. */
  keep(token: AccessToken): void;
}

/** Binds a resolution to its environment's token endpoint. */
export function sourceCredentials(
  resolution: CredentialsResolution,
  environment: EnvironmentConfig,
): SourceCredentials {
  if (!resolution.ok) return resolution;
  return {
    ok: true,
    credentials: resolution.credentials,
    key: credentialsKey(resolution.credentials, environment),
  };
}

/** What the broker needs to get a token for `source`; 400 `no_credentials` when it has none. */
export function tokenContext(source: TokenSource, client: CardApiClient): TokenContext {
  const { credentials } = source;
  if (!credentials.ok) throw new ApiError("no_credentials", credentials.message);
  return {
    client,
    environment: source.environment.name,
    credentials: credentials.credentials,
    credentialsKey: credentials.key,
  };
}

/** The source's token when it belongs to the source's credentials and token endpoint. */
export function boundToken(source: TokenSource): AccessToken | undefined {
  const token = source.current();
  const { credentials } = source;
  return token && credentials.ok && token.credentialsKey === credentials.key ? token : undefined;
}
