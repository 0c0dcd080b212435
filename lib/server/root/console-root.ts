/**
 * The composition root: everything the console's routes, pages and background work use, built from one
 * configuration, once per process, and handed down. Storage-backed services open asynchronously (at start,
 * from instrumentation) and are opened again by the next caller after a failure.
 */
import "server-only";
import type { Sandbox } from "@/lib/sandbox";
import { TokenBroker } from "@/lib/server/token/broker";
import type { CardApiClient } from "@/lib/server/card-api/client";
import { createUpstreamClients } from "@/lib/server/card-api/environments";
import type { CertificationUpstream } from "@/lib/server/certification/environment";
import { embeddedClientPort } from "@/lib/server/client-certification";
import { registerConfigSecrets, type EnvironmentConfig, type ServerConfig } from "@/lib/server/config";
import type { DatabaseRegistry } from "@/lib/server/database";
import { buildAuthSettings } from "@/lib/server/identity/auth-settings";
import type { IdentityDeps } from "@/lib/server/identity/request-identity";
import type { AuthSettings } from "@/lib/server/identity/settings";
import type { PageIdentityDeps } from "@/lib/server/identity/page-identity";
import { batchBalanceInquiry } from "@/lib/server/inquiry/operations";
import { callContexts, type CallContexts } from "@/lib/server/token/call-context";
import { describeSession } from "@/lib/server/token/session-info";
import type { ConsoleMetrics } from "@/lib/server/metrics";
import type { DetachedInquiry } from "@/lib/server/support/batch-runner";
import { bindLogger, type ConsoleLogger } from "@/lib/server/util/logger";
import { createProcessParts, type ProcessParts } from "./process-parts";
import { openStorage, retried, type Services } from "./storage";
import { createBackgroundSweep, SWEEP_EVERY_MS } from "./sweep";
import {
  createStarterClientsService,
  type StarterClientsService,
} from "@/lib/server/starter-clients/service";

export interface ConsoleRoot {
  readonly config: ServerConfig;
  readonly logger: ConsoleLogger;
  readonly metrics: ConsoleMetrics;
  readonly authSettings: AuthSettings;
  /** One token broker: concurrent calls with the same credentials share one token request. */
  readonly tokenBroker: TokenBroker;
  /** The card API client of an environment (one per environment). */
  upstream(environment: EnvironmentConfig): CardApiClient;
  /** The console's own sandbox, mounted at /sandbox. */
  embeddedSandbox(): Sandbox;
  /** Each call's context: who pays, for which environment, and where its token lives. */
  readonly calls: CallContexts;
  readonly certificationUpstream: CertificationUpstream;
  /** A Balance Inquiry outside a request (support batch cards). */
  readonly detachedInquiry: DetachedInquiry;
  /** The storage-backed services, opened on first call (at start), opened again after a failure. */
  services(): Promise<Services>;
  /** What a page render needs to know its caller (lib/server/identity/page-identity). */
  readonly page: PageIdentityDeps;
  /** The starter clients' catalogue and zips (built once per root). */
  readonly starterClients: StarterClientsService;
  /** What resolving a request's caller needs. */
  identity(): Promise<IdentityDeps>;
  /** Starts the background sweep (once). */
  startSweep(): void;
  /** Starts this instance's monitor scheduler (once; stopped when the databases close). */
  startMonitors(): Promise<void>;
  /** What outlives this configuration (tests that reconfigure build a new root over the same parts). */
  readonly parts: ProcessParts;
  readonly databases: DatabaseRegistry;
  /** Stops background work and closes the databases (shutdown, tests). */
  close(): Promise<void>;
}

/** What resolving a caller needs, once the storage services are open. */
function identityDeps(authSettings: AuthSettings, services: () => Promise<Services>) {
  return () => services().then(({ sessions, suspensions }) => ({ authSettings, sessions, suspensions }));
}

/** Starts the monitor scheduler once the database is open; a database that is not there yet is tried again. */
function startMonitors(services: () => Promise<Services>, parts: ProcessParts): Promise<void> {
  let closed = false;
  parts.databases.beforeClose(() => {
    closed = true;
  });
  const attempt = (): Promise<void> =>
    services().then(
      ({ monitors }) => monitors.start(),
      () => {
        if (closed) return;
        setTimeout(() => void attempt(), SWEEP_EVERY_MS).unref();
      },
    );
  return attempt();
}

/** What a root may be given instead of the real thing (tests). */
export interface RootOptions {
  /** The wall clock of the per-minute anonymous refusal counts. */
  now?: () => number;
}

export function createConsoleRoot(
  config: ServerConfig,
  parts: ProcessParts = createProcessParts(),
  options: RootOptions = {},
): ConsoleRoot {
  bindLogger(parts.logger);
  registerConfigSecrets(config, parts.logger);
  const upstream = createUpstreamClients({
    config,
    metrics: parts.metrics,
    dispatcher: parts.agent,
    embeddedSandbox: parts.embeddedSandbox,
  });
  const tokenBroker = new TokenBroker(config.tokenRenewSkewSeconds);
  const calls = callContexts({ config, broker: tokenBroker, clientFor: upstream });
  const certificationUpstream: CertificationUpstream = {
    client: upstream,
    revokeEmbeddedTokens: () => parts.embeddedSandbox().revokeTokens(),
  };
  const inquire = batchBalanceInquiry;
  const storageDeps = { config, parts, inquire, certificationUpstream, now: options.now ?? Date.now };
  const services = retried(() => openStorage({ ...storageDeps, batchCallContext: calls.fromState }));
  parts.useClientPort(embeddedClientPort(async () => (await services()).clientCertification));
  const authSettings = buildAuthSettings(config);
  const identity = identityDeps(authSettings, services);
  const root: ConsoleRoot = {
    config,
    logger: parts.logger,
    metrics: parts.metrics,
    authSettings,
    tokenBroker,
    upstream,
    embeddedSandbox: parts.embeddedSandbox,
    calls,
    certificationUpstream,
    detachedInquiry: inquire,
    services: () => services(),
    identity,
    page: {
      config,
      identity,
      describeSession: (session, tokenDetails) =>
        describeSession(config, calls.ofSession(session), tokenDetails),
    },
    starterClients: createStarterClientsService(),
    startSweep: () => sweep.start(),
    startMonitors: () => startMonitors(services, parts),
    parts,
    databases: parts.databases,
    close: () => parts.databases.close(),
  };
  const sweep = createBackgroundSweep(root);
  return root;
}
