/**
 * What belongs to the process rather than to one configuration: the log stream and its secrets, the metrics
 * registry, the open databases, the rate limiter's unspent leases, the upstream connection pool and the
 * embedded sandbox. A root built again for a new configuration (tests that reconfigure) keeps them.
 */
import "server-only";
import { Agent } from "undici";
import type { Sandbox, SandboxClientPort } from "@/lib/sandbox";
import { createEmbeddedSandbox } from "@/lib/sandbox/embedded";
import { sandboxSettings } from "@/lib/server/config/sandbox";
import { createDatabaseRegistry, type DatabaseRegistry } from "@/lib/server/database";
import type { LeaseBook } from "@/lib/server/http/rate-limit";
import { createMetrics, type ConsoleMetrics } from "@/lib/server/metrics";
import { currentLogger, type ConsoleLogger } from "@/lib/server/util/logger";

export interface ProcessParts {
  logger: ConsoleLogger;
  metrics: ConsoleMetrics;
  databases: DatabaseRegistry;
  /** Unspent rate-limit leases, per database. */
  leases: Map<string, LeaseBook>;
  /** One keep-alive connection pool for every HTTP upstream. */
  agent: Agent;
  /** The console's own sandbox, mounted at /sandbox (made on first use, from the sandbox variables). */
  embeddedSandbox(): Sandbox;
  /** Replaces the embedded sandbox (tests that configure its clock), or forgets it (`undefined`). */
  replaceEmbeddedSandbox(sandbox: Sandbox | undefined): void;
  /** Where the sandbox finds certification clients: the latest root's database. */
  useClientPort(port: SandboxClientPort): void;
}

/** Forwards to the port set last: the sandbox outlives a configuration, its clients' database does not. */
function forwardingPort(current: () => SandboxClientPort | undefined): SandboxClientPort {
  const port = () => {
    const target = current();
    if (!target) throw new Error("The embedded sandbox's certification clients are not connected yet.");
    return target;
  };
  return {
    authenticate: (clientId, secret) => port().authenticate(clientId, secret),
    find: (clientId) => port().find(clientId),
    take: (clientId, operation) => port().take(clientId, operation),
    record: (call) => port().record(call),
    refused: (clientId) => port().refused(clientId),
  };
}

export function createProcessParts(): ProcessParts {
  let sandbox: Sandbox | undefined;
  let clientPort: SandboxClientPort | undefined;
  const port = forwardingPort(() => clientPort);
  return {
    logger: currentLogger(),
    metrics: createMetrics(),
    databases: createDatabaseRegistry(),
    leases: new Map(),
    agent: new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: 128,
      connect: { timeout: 10_000 },
    }),
    embeddedSandbox: () => (sandbox ??= createEmbeddedSandbox(sandboxSettings(), port)),
    replaceEmbeddedSandbox: (replacement) => {
      sandbox = replacement;
    },
    useClientPort: (next) => {
      clientPort = next;
    },
  };
}
