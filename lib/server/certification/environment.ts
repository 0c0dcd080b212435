/**
 * The environment a run calls, built from the server configuration with the console's own card API
 * clients (lib/server/card-api/environments): the embedded sandbox in-process, the others over HTTP.
 */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { CardApiClient } from "@/lib/server/card-api/client";
import { findEnvironment } from "@/lib/server/card-api/environments";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import type { CertificationEnvironment } from "./context";

/** The console's upstream clients, and the embedded sandbox's token revocation (TOK-09). */
export interface CertificationUpstream {
  client(environment: EnvironmentConfig): CardApiClient;
  revokeEmbeddedTokens(): void;
}

export class EnvironmentNotConfiguredError extends Error {
  override name = "EnvironmentNotConfiguredError";
}

export function certificationEnvironment(
  config: ServerConfig,
  upstream: CertificationUpstream,
  name: EnvironmentName,
): CertificationEnvironment {
  const environment = findEnvironment(config, name);
  if (!environment) {
    const known = config.environments.map((item) => item.name).join(", ");
    throw new EnvironmentNotConfiguredError(`Environment ${name} is not configured (configured: ${known}).`);
  }
  const siblingName = name === "sandbox" ? "production" : name === "production" ? "sandbox" : undefined;
  const sibling = siblingName ? findEnvironment(config, siblingName) : undefined;
  return {
    name,
    authUrl: environment.authUrl,
    baseUrl: environment.baseUrl,
    transport: environment.transport,
    client: upstream.client(environment),
    ...(sibling && sibling.authUrl === environment.authUrl
      ? { sibling: { name: sibling.name, baseUrl: sibling.baseUrl, client: upstream.client(sibling) } }
      : {}),
    ...(environment.transport === "embedded" ? { revokeTokens: () => upstream.revokeEmbeddedTokens() } : {}),
  };
}
