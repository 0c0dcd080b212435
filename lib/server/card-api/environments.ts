/**
 * The environments a session can use, and one card API client per environment. The embedded sandbox is
 * called in-process (no socket); the others through the shared keep-alive pool. Addresses come only from
 * the server configuration.
 */
import "server-only";
import type { EnvironmentInfo, EnvironmentName } from "@/lib/shared/contracts";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import type { Dispatcher } from "undici";
import type { ConsoleMetrics } from "@/lib/server/metrics";
import { meteredTransport } from "@/lib/server/metrics/upstream";
import { createCardApiClient, type CardApiClient } from "./client";
import { inProcessTransport, undiciTransport } from "./transport";

/** The session's environment when still configured, else the default (the first configured). */
export function currentEnvironment(
  config: ServerConfig,
  selected: EnvironmentName | undefined,
): EnvironmentConfig {
  const chosen = selected && config.environments.find((environment) => environment.name === selected);
  const fallback = config.environments[0];
  if (!fallback) throw new Error("no environment configured");
  return chosen || fallback;
}

export function findEnvironment(config: ServerConfig, name: EnvironmentName): EnvironmentConfig | undefined {
  return config.environments.find((environment) => environment.name === name);
}

export function describeEnvironments(config: ServerConfig): EnvironmentInfo[] {
  return config.environments.map(({ name, baseUrl, authUrl }) => ({
    name,
    base_url: baseUrl,
    auth_url: authUrl,
  }));
}

export interface UpstreamClientDeps {
  config: ServerConfig;
  metrics: ConsoleMetrics;
  /** The pooled keep-alive dispatcher for HTTP upstreams. */
  dispatcher: Dispatcher;
  /** The console's own sandbox, called in-process. */
  embeddedSandbox: () => { handle(request: Request): Promise<Response> };
}

/** One card API client per environment, made on first use. */
export function createUpstreamClients(
  deps: UpstreamClientDeps,
): (environment: EnvironmentConfig) => CardApiClient {
  const { config, metrics, dispatcher, embeddedSandbox } = deps;
  const clients = new Map<EnvironmentName, CardApiClient>();
  return (environment) => {
    let client = clients.get(environment.name);
    if (!client) {
      const transport =
        environment.transport === "embedded"
          ? inProcessTransport((request) => embeddedSandbox().handle(request))
          : undiciTransport(dispatcher);
      client = createCardApiClient({
        transport: meteredTransport(transport, environment.name, metrics),
        authUrl: environment.authUrl,
        baseUrl: environment.baseUrl,
        timeoutMs: config.timeoutMs,
      });
      clients.set(environment.name, client);
    }
    return client;
  };
}
