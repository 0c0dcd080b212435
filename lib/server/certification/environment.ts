/**
 * The environment a run calls, built from the server configuration with the console's own card API
 * clients (lib/server/card-api/environments): the embedded sandbox in-process, the others over HTTP.
 */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { clientFor, findEnvironment } from "@/lib/server/card-api/environments";
import type { ServerConfig } from "@/lib/server/config";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import type { CertificationEnvironment } from "./context";

export class EnvironmentNotConfiguredError extends Error {
  override name = "EnvironmentNotConfiguredError";
}

export function certificationEnvironment(
  config: ServerConfig,
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
    client: clientFor(config, environment),
    ...(sibling && sibling.authUrl === environment.authUrl
      ? { sibling: { name: sibling.name, baseUrl: sibling.baseUrl, client: clientFor(config, sibling) } }
      : {}),
    ...(environment.transport === "embedded"
      ? { revokeTokens: () => getEmbeddedSandbox().revokeTokens() }
      : {}),
  };
}
