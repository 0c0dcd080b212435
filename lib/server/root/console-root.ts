/**
 * The composition root: everything the console's routes, pages and background work use, built from one
 * configuration, once per process (./process keeps it), and handed down. Top to bottom:
 *
 * 1. The process's parts, which outlive a configuration (tests that reconfigure build a new root over them): the
 *    log, the metrics registry, the open databases, the rate limiter's unspent leases, the upstream connection
 *    pool and the embedded sandbox.
 * 2. From the configuration and the parts: the card API client of each environment, one token broker behind each
 *    call's context, the sign-in settings.
 * 3. The storage core, opened on first call (at start) and again after a failure: the database, one audit log,
 *    the anonymous refusals, sessions, suspensions, the rate limiter and the team runs. Every route needs it.
 * 4. The feature services over the core, each built on its first call through a dynamic `import()`: a route's
 *    bundle then holds only the core, and a feature's modules load when its first call arrives.
 * 5. `start()`: what the server does at start (instrumentation): the database opened, the background sweep and
 *    the monitor scheduler started.
 */
import "server-only";
import { Agent } from "undici";
import type { Sandbox, SandboxClientPort } from "@/lib/sandbox";
import { createEmbeddedSandbox } from "@/lib/sandbox/embedded";
import { checkpointFile, createAuditLog, KEYED_CHAIN_MIGRATION, type AuditLog } from "@/lib/server/audit";
import { createAnonymousRefusals, type AnonymousRefusals } from "@/lib/server/audit/anonymous-refusals";
import { createUserRefusals, type UserRefusals } from "@/lib/server/audit/user-refusals";
import { recordAudit } from "@/lib/server/audit/record";
import { createUpstreamClients } from "@/lib/server/card-api/environments";
import type { CertificationUpstream } from "@/lib/server/certification/environment";
import type { CertificationService } from "@/lib/server/certification/service";
import type { EvidenceSigningKey } from "@/lib/server/certification/signing-key";
import { embeddedClientPort } from "@/lib/server/client-certification/embedded-port";
import type { ClientCertificationService } from "@/lib/server/client-certification/service";
import { registerConfigSecrets, type ServerConfig } from "@/lib/server/config";
import { sandboxSettings } from "@/lib/server/config/sandbox";
import {
  createDatabaseRegistry,
  storageSettingsFromConfig,
  type Database,
  type DatabaseHandle,
  type DatabaseRegistry,
} from "@/lib/server/database";
import {
  awaitUpstreamCall,
  createRateLimiter,
  type LeaseBook,
  type RateLimiter,
} from "@/lib/server/http/rate-limit";
import { auditCaller } from "@/lib/server/identity/audit-caller";
import { buildAuthSettings } from "@/lib/server/identity/auth-settings";
import type { PageIdentityDeps } from "@/lib/server/identity/page-identity";
import type { IdentityDeps } from "@/lib/server/identity/request-identity";
import type { AuthSettings } from "@/lib/server/identity/settings";
import { createTeamRunWriter, type TeamRunWriter } from "@/lib/server/inquiry/runs/writer";
import { countedAuditLog, createMetrics, type ConsoleMetrics } from "@/lib/server/metrics";
import type { MonitorService } from "@/lib/server/monitors/service";
import { createSessionContext, type SessionContext } from "@/lib/server/session";
import { createSessionStore, type SessionStore, type StoredSession } from "@/lib/server/session/store";
import { createSuspensionStore, type SuspensionStore } from "@/lib/server/session/suspensions";
import type { StarterClientsService } from "@/lib/server/starter-clients/service";
import type { SupportServices } from "@/lib/server/support/services";
import { TokenBroker } from "@/lib/server/token/broker";
import { callContexts, type CallContexts } from "@/lib/server/token/call-context";
import { describeSession } from "@/lib/server/token/session-info";
import { generatedKeyLevel, generateHmacKey, loadOrCreateKey } from "@/lib/server/util/generated-key";
import { bindLogger, currentLogger, type ConsoleLogger } from "@/lib/server/util/logger";
import type { Role } from "@/lib/shared/contracts";

/** How soon a monitor scheduler that the database kept from starting tries again (as often as the sweep runs). */
const MONITOR_START_RETRY_MS = 30_000;

export interface ConsoleRoot extends PageIdentityDeps {
  readonly config: ServerConfig;
  readonly logger: ConsoleLogger;
  readonly metrics: ConsoleMetrics;
  readonly authSettings: AuthSettings;
  /** The card API client of each environment, and the embedded sandbox's token revocation. */
  readonly upstream: CertificationUpstream;
  /** The console's own sandbox, mounted at /sandbox. */
  embeddedSandbox(): Sandbox;
  /** Each call's context: who pays, for which environment, and where its token lives (one token broker). */
  readonly calls: CallContexts;
  /** The storage core and the feature services over it, opened on first call (at start), again after a failure. */
  services(): Promise<Services>;
  /** What resolving a request's caller needs. */
  identity(): Promise<IdentityDeps>;
  /** The starter clients' catalogue and zips (built on first call). */
  starterClients(): Promise<StarterClientsService>;
  /** Opens the database and starts the background sweep and the monitor scheduler (once; instrumentation). */
  start(): Promise<void>;
  readonly parts: ProcessParts;
  /** Stops background work and closes the databases (shutdown, tests). */
  close(): Promise<void>;
}

// 1. The process's parts ------------------------------------------------------------------------------------

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
    planCall: (clientId, operation) => port().planCall(clientId, operation),
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

// 2. The root, from the configuration and the parts ----------------------------------------------------------

/** What a root may be given instead of the real thing (tests). */
export interface RootOptions {
  /** The wall clock of the per-minute anonymous refusal counts and of monitors. */
  now?: () => number;
}

export function createConsoleRoot(
  config: ServerConfig,
  parts: ProcessParts = createProcessParts(),
  options: RootOptions = {},
): ConsoleRoot {
  bindLogger(parts.logger);
  registerConfigSecrets(config, parts.logger);
  const client = createUpstreamClients({
    config,
    metrics: parts.metrics,
    dispatcher: parts.agent,
    embeddedSandbox: parts.embeddedSandbox,
  });
  const upstream = { client, revokeEmbeddedTokens: () => parts.embeddedSandbox().revokeTokens() };
  const calls = callContexts({
    config,
    broker: new TokenBroker(config.tokenRenewSkewSeconds),
    clientFor: client,
  });
  const deps: FeatureDeps = { config, parts, calls, upstream, now: options.now ?? Date.now };
  const services = retried(async () => withFeatures(await openStorageCore(deps), deps));
  parts.useClientPort(embeddedClientPort(async () => (await services()).clientCertification()));
  const authSettings = buildAuthSettings(config);
  let starting: Promise<void> | undefined;
  const root: ConsoleRoot = {
    config,
    logger: parts.logger,
    metrics: parts.metrics,
    authSettings,
    upstream,
    embeddedSandbox: parts.embeddedSandbox,
    calls,
    services,
    identity: async () => {
      const { sessions, suspensions } = await services();
      return { authSettings, sessions, suspensions };
    },
    describeSession: (session, tokenDetails) =>
      describeSession(config, calls.ofSession(session), tokenDetails),
    starterClients: retried(async () =>
      (await import("@/lib/server/starter-clients/service")).createStarterClientsService(),
    ),
    start: () => (starting ??= startAtStart(root)),
    parts,
    close: () => parts.databases.close(),
  };
  return root;
}

/** A promise made on first call and made again after it failed. */
function retried<T>(create: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      const attempt = create();
      pending = attempt;
      attempt.catch(() => {
        if (pending === attempt) pending = undefined;
      });
    }
    return pending;
  };
}

// 3. The storage core ----------------------------------------------------------------------------------------

interface StorageCore {
  db: Database;
  auditLog: AuditLog;
  /** Refusals of anonymous callers: counted and summarised per address and minute, throttled past a limit. */
  anonymousRefusals: AnonymousRefusals;
  /** Refusals of signed-in callers: the first per user, route and minute written, the rest summarised. */
  userRefusals: UserRefusals;
  sessionStore: SessionStore;
  /** What reading and writing a request's session needs: the configuration, the store, the seal cache. */
  sessions: SessionContext;
  /** Users an administrator keeps out for a while, on every instance. */
  suspensions: SuspensionStore;
  rateLimiter: RateLimiter;
  /** The team's inquiry runs, written in batches (lib/server/inquiry/runs/writer). */
  teamRuns: TeamRunWriter;
}

/** What the storage core and the feature services are built from (the rest of the root). */
interface FeatureDeps {
  config: ServerConfig;
  parts: ProcessParts;
  calls: CallContexts;
  upstream: CertificationUpstream;
  now: () => number;
}

async function openStorageCore({ config, parts, now }: FeatureDeps) {
  const hmacKey = loadOrCreateKey({
    name: "AUDIT_HMAC_KEY",
    value: config.auditHmacKey,
    dataDir: config.dataDir,
    generate: generateHmacKey,
    // Only instances sharing a PostgreSQL must share the key: with the embedded database it is said, not warned.
    warn: (message, _reused, file) =>
      parts.logger[generatedKeyLevel(config.databaseUrl)]({ key: "AUDIT_HMAC_KEY", file }, message),
  });
  parts.logger.registerSecret(hmacKey);
  const handle = await parts.databases.open(storageSettingsFromConfig(config));
  const { db } = handle;
  const { auditLog, anonymousRefusals, userRefusals } = auditLogFor(config, parts, db, hmacKey, now);
  if (handle.migrated?.includes(KEYED_CHAIN_MIGRATION)) await auditLog.markKeyedStart();
  const sessionStore = sessionStoreFor(config, handle);
  const core: StorageCore = {
    db,
    auditLog,
    anonymousRefusals,
    userRefusals,
    sessionStore,
    sessions: createSessionContext(config, sessionStore, proxySignIns(config, auditLog)),
    suspensions: createSuspensionStore({ db, feed: handle.sessionFeed }),
    rateLimiter: rateLimiterFor(config, parts, db),
    teamRuns: teamRunWriterFor(parts, db),
  };
  return { core, handle, hmacKey };
}

/** Runs still waiting for their batch are written before the database closes. */
function teamRunWriterFor(parts: ProcessParts, db: Database): TeamRunWriter {
  const writer = createTeamRunWriter(db);
  parts.databases.beforeClose(() => writer.flush());
  return writer;
}

function auditLogFor(
  config: ServerConfig,
  parts: ProcessParts,
  db: Database,
  hmacKey: string,
  now: () => number,
) {
  const auditLog = countedAuditLog(
    createAuditLog({
      db,
      hmacKey,
      checkpoints: { file: checkpointFile(config.dataDir), everyRows: 1000, everyMs: 60_000 },
      // One committed audit batch: one statement of `rows` rows (what group commit achieves).
      onBatch: (rows) => parts.metrics.auditBatchRows.observe(rows),
    }),
    parts.metrics,
  );
  const anonymousRefusals = createAnonymousRefusals({ append: (entry) => auditLog.append(entry), now });
  const userRefusals = createUserRefusals({
    write: (caller, fields) => recordAudit(auditLog, caller, fields),
    now,
  });
  // At shutdown: the last summary rows, then the last checkpoint (covering them), before the database closes.
  parts.databases.beforeClose(async () => {
    await Promise.all([anonymousRefusals.close(), userRefusals.close()]);
    await auditLog.close();
  });
  return { auditLog, anonymousRefusals, userRefusals };
}

/**
 * The idle timeout is for signed-in users (oidc, proxy). In AUTH_MODE=none the one local user on their own
 * machine keeps a session for its whole lifetime: an idle timeout would only make them type credentials again,
 * and there is nobody else to protect the session from (the console listens on loopback only).
 */
function sessionStoreFor(config: ServerConfig, handle: DatabaseHandle): SessionStore {
  const idleSeconds = config.authMode === "none" ? config.sessionTtlSeconds : config.sessionIdleSeconds;
  return createSessionStore({
    db: handle.db,
    idleSeconds,
    absoluteSeconds: config.sessionTtlSeconds,
    // The idle check is as coarse as the touch interval: keep it well under the idle timeout.
    touchEverySeconds: Math.max(1, Math.min(30, Math.floor(idleSeconds / 5))),
    feed: handle.sessionFeed,
  });
}

/**
 * AUTH_MODE=proxy has no sign-in step of its own: a session the proxy's headers make is the sign-in, audited as
 * the OIDC callback audits its own (who, from where, and how).
 */
function proxySignIns(config: ServerConfig, auditLog: AuditLog) {
  if (config.authMode !== "proxy") return undefined;
  return (row: StoredSession) =>
    recordAudit(auditLog, auditCaller({ id: row.userId, roles: row.roles as Role[] }, row.clientAddress), {
      event: "sign_in",
      outcome: "success",
      details: { signed_in_with: "proxy" },
    });
}

function rateLimiterFor(config: ServerConfig, parts: ProcessParts, db: Database): RateLimiter {
  // Unspent leases outlive a configuration change (tests), not the process: a restart forfeits them.
  const key = config.databaseUrl ?? config.dataDir;
  let leases = parts.leases.get(key);
  if (!leases) parts.leases.set(key, (leases = new Map()));
  return createRateLimiter({ db, leases });
}

// 4. The feature services, each loaded on its first call -----------------------------------------------------

export interface Services extends StorageCore {
  /** Certification runs (docs/design.md §8); building it loads the evidence signing key. */
  certification(): Promise<CertificationService>;
  /** Certifications of the user's own client application (docs/design.md §11). */
  clientCertification(): Promise<ClientCertificationService>;
  /** The key that signs client certification bundles. */
  clientEvidenceKey(): Promise<EvidenceSigningKey>;
  /** The support desk's card vault and batch runner (docs/design.md §9). */
  support(): Promise<SupportServices>;
  /** Monitors (docs/design.md §13): the routes' service and this instance's scheduler (started by `start()`). */
  monitors(): Promise<MonitorService>;
}

function withFeatures(opened: Awaited<ReturnType<typeof openStorageCore>>, deps: FeatureDeps): Services {
  const { core, handle, hmacKey } = opened;
  const { config, parts, calls, upstream } = deps;
  const certification = retried(async () => {
    const { createCertificationService } = await import("@/lib/server/certification/service");
    return createCertificationService(config, handle, {
      upstream,
      metrics: parts.metrics,
      // A run's calls to a real upstream spend its operator's RATE_LIMIT_PER_MINUTE, as their own calls do.
      upstreamCall: (userId, signal) =>
        awaitUpstreamCall(core.rateLimiter, userId, config.rateLimitPerMinute, signal),
    });
  });
  return {
    ...core,
    certification,
    clientCertification: retried(async () => {
      const { createClientCertificationService } = await import("@/lib/server/client-certification/service");
      return createClientCertificationService({ db: core.db, hmacKey });
    }),
    clientEvidenceKey: retried(async () =>
      (await import("@/lib/server/client-certification")).loadClientEvidenceKey(config),
    ),
    support: retried(async () => {
      const [{ createSupportServices }, { batchBalanceInquiry }] = await Promise.all([
        import("@/lib/server/support/services"),
        import("@/lib/server/inquiry/operations"),
      ]);
      const { db, auditLog, rateLimiter } = core;
      const { metrics } = parts;
      const callContext = calls.fromState;
      return createSupportServices({
        config,
        db,
        auditLog,
        hmacKey,
        rateLimiter,
        metrics,
        inquire: batchBalanceInquiry,
        callContext,
      });
    }),
    monitors: retried(() => openMonitors(deps, handle, core.auditLog, certification)),
  };
}

/** The monitor service; its scheduler stops before the database closes (a late pass would only fail). */
async function openMonitors(
  { config, parts, now }: FeatureDeps,
  handle: DatabaseHandle,
  auditLog: AuditLog,
  certification: () => Promise<CertificationService>,
): Promise<MonitorService> {
  const [{ MonitorService }, { createMonitorStore }] = await Promise.all([
    import("@/lib/server/monitors/service"),
    import("@/lib/server/monitors/store"),
  ]);
  const store = createMonitorStore(handle.db);
  // PGlite is single-process: a lease left in it is a dead process's.
  if (handle.kind === "pglite") await store.releaseAll();
  const monitors = new MonitorService({
    config,
    store,
    certification,
    auditLog,
    deliveryCounter: parts.metrics.alertDeliveries,
    now: () => new Date(now()),
  });
  parts.databases.beforeClose(() => monitors.stop());
  return monitors;
}

// 5. At start ------------------------------------------------------------------------------------------------

/**
 * The database is opened at start, not by the first request (PGlite's start took tens of seconds under load).
 * PGlite is awaited, so the server listens with its database open; PostgreSQL opens in the background (a server
 * that is down must not stop the start: `/api/ready` waits for this same open and says why it failed). Then
 * the sweep (batches and runs an instance that died left behind) and this instance's monitor scheduler (due
 * runs, their alerts, runs a dead instance left) start.
 */
async function startAtStart(root: ConsoleRoot): Promise<void> {
  const { config, logger } = root;
  const started = performance.now();
  const opening = root.services().then(
    () =>
      logger.info(
        { database: config.databaseUrl ? "postgres" : "pglite", ms: Math.round(performance.now() - started) },
        "database open",
      ),
    (error: unknown) =>
      // A URL in an error message could carry a password.
      logger.error(
        { error: messageOf(error).replace(/\/\/[^@\s]*@/g, "//***@") },
        "database not opened at start",
      ),
  );
  if (!config.databaseUrl) await opening;
  const { createBackgroundSweep } = await import("@/lib/server/root/sweep");
  createBackgroundSweep(root).start();
  await startMonitors(root).catch((error: unknown) =>
    logger.error({ error: messageOf(error) }, "monitors not started"),
  );
}

/** Starts the monitor scheduler once the database is open; a database that is not there yet is tried again. */
function startMonitors(root: ConsoleRoot): Promise<void> {
  let closed = false;
  root.parts.databases.beforeClose(() => {
    closed = true;
  });
  const attempt = (): Promise<void> =>
    root
      .services()
      .then((services) => services.monitors())
      .then(
        (monitors) => monitors.start(),
        () => {
          if (closed) return;
          setTimeout(() => void attempt(), MONITOR_START_RETRY_MS).unref();
        },
      );
  return attempt();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
