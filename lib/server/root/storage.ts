/**
 * The storage-backed services, built from one opened database: one audit log (so concurrent appends share a
 * transaction), the anonymous refusals, one session store, one rate limiter, the support desk, the client
 * certifications and, on first use, the certification service.
 */
import "server-only";
import { checkpointFile, createAuditLog, KEYED_CHAIN_MIGRATION, type AuditLog } from "@/lib/server/audit";
import { createAnonymousRefusals, type AnonymousRefusals } from "@/lib/server/audit/anonymous-refusals";
import { createCertificationService, type CertificationService } from "@/lib/server/certification/service";
import {
  createClientCertificationService,
  loadClientEvidenceKey,
  type ClientCertificationService,
} from "@/lib/server/client-certification";
import type { EvidenceSigningKey } from "@/lib/server/certification/signing-key";
import type { ServerConfig } from "@/lib/server/config";
import { storageSettingsFromConfig, type Database, type DatabaseHandle } from "@/lib/server/database";
import { createRateLimiter, type RateLimiter } from "@/lib/server/http/rate-limit";
import { countedAuditLog } from "@/lib/server/metrics";
import { createSessionContext, type SessionContext } from "@/lib/server/session";
import { createSessionStore, type SessionStore, type StoredSession } from "@/lib/server/session/store";
import { createSuspensionStore, type SuspensionStore } from "@/lib/server/session/suspensions";
import { recordAudit } from "@/lib/server/audit/record";
import { auditCaller } from "@/lib/server/identity/audit-caller";
import type { Role } from "@/lib/shared/contracts";
import { createTeamRunWriter, type TeamRunWriter } from "@/lib/server/inquiry/runs/writer";
import { createSupportServices, type SupportServices } from "@/lib/server/support/services";
import type { BatchCallContext, DetachedInquiry } from "@/lib/server/support/batch-runner";
import { generateHmacKey, loadOrCreateKey } from "@/lib/server/util/generated-key";
import type { ProcessParts } from "./process-parts";
import type { CertificationUpstream } from "@/lib/server/certification/environment";
import { MonitorService } from "@/lib/server/monitors/service";
import { createMonitorStore } from "@/lib/server/monitors/store";

export interface Services {
  db: Database;
  auditLog: AuditLog;
  /** Refusals of anonymous callers: counted and summarised per address and minute, throttled past a limit. */
  anonymousRefusals: AnonymousRefusals;
  hmacKey: string;
  sessionStore: SessionStore;
  /** What reading and writing a request's session needs: the configuration, the store, the seal cache. */
  sessions: SessionContext;
  /** Users an administrator keeps out for a while, on every instance. */
  suspensions: SuspensionStore;
  rateLimiter: RateLimiter;
  /** The team's inquiry runs, written in batches (lib/server/inquiry/runs/writer). */
  teamRuns: TeamRunWriter;
  support: SupportServices;
  clientCertification: ClientCertificationService;
  /** The key that signs client certification bundles (loaded on first use). */
  clientEvidenceKey(): Promise<EvidenceSigningKey>;
  /** Certification runs (built on first use: it loads the signing key); a failed start is retried. */
  certification(): Promise<CertificationService>;
  /** Monitors (DESIGN.md §13): the routes' service and this instance's scheduler (started by the root). */
  monitors: MonitorService;
}

/** What the storage services need from the rest of the root. */
export interface StorageDeps {
  config: ServerConfig;
  parts: ProcessParts;
  inquire: DetachedInquiry;
  batchCallContext: BatchCallContext;
  certificationUpstream: CertificationUpstream;
  now: () => number;
}

/**
 * The idle timeout is for signed-in users (oidc, proxy). In AUTH_MODE=none the one local user on their own
 * machine keeps a session for its whole lifetime: an idle timeout would only make them type credentials again,
 * and there is nobody else to protect the session from (the console listens on loopback only).
 */
function sessionIdleSeconds(config: ServerConfig): number {
  return config.authMode === "none" ? config.sessionTtlSeconds : config.sessionIdleSeconds;
}

/** A promise made on first call and made again after it failed. */
export function retried<T>(create: () => Promise<T>): () => Promise<T> {
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

function sessionStoreFor(config: ServerConfig, handle: DatabaseHandle): SessionStore {
  const idleSeconds = sessionIdleSeconds(config);
  return createSessionStore({
    db: handle.db,
    idleSeconds,
    absoluteSeconds: config.sessionTtlSeconds,
    // The idle check is as coarse as the touch interval: keep it well under the idle timeout.
    touchEverySeconds: Math.max(1, Math.min(30, Math.floor(idleSeconds / 5))),
    feed: handle.sessionFeed,
  });
}

function rateLimiterFor(config: ServerConfig, parts: ProcessParts, db: Database): RateLimiter {
  // Unspent leases outlive a configuration change (tests), not the process: a restart forfeits them.
  const key = config.databaseUrl ?? config.dataDir;
  let leases = parts.leases.get(key);
  if (!leases) parts.leases.set(key, (leases = new Map()));
  return createRateLimiter({ db, leases });
}

function auditLogFor(deps: StorageDeps, db: Database, hmacKey: string) {
  const { config, parts, now } = deps;
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
  // At shutdown: the last summary rows, then the last checkpoint (covering them), before the database closes.
  parts.databases.beforeClose(async () => {
    await anonymousRefusals.close();
    await auditLog.close();
  });
  return { auditLog, anonymousRefusals };
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

/** The monitor service; its scheduler stops before the database closes (a late pass would only fail). */
async function openMonitors(
  deps: StorageDeps,
  handle: DatabaseHandle,
  auditLog: AuditLog,
  certification: () => Promise<CertificationService>,
): Promise<MonitorService> {
  const store = createMonitorStore(handle.db);
  // PGlite is single-process: a lease left in it is a dead process's.
  if (handle.kind === "pglite") await store.releaseAll();
  const monitors = new MonitorService({
    config: deps.config,
    store,
    certification,
    auditLog,
    now: () => new Date(deps.now()),
  });
  deps.parts.databases.beforeClose(() => monitors.stop());
  return monitors;
}

export async function openStorage(deps: StorageDeps) {
  const { config, parts, inquire, batchCallContext, certificationUpstream } = deps;
  const hmacKey = loadOrCreateKey({
    name: "AUDIT_HMAC_KEY",
    value: config.auditHmacKey,
    dataDir: config.dataDir,
    generate: generateHmacKey,
  });
  parts.logger.registerSecret(hmacKey);
  const handle = await parts.databases.open(storageSettingsFromConfig(config));
  const { db } = handle;
  const { auditLog, anonymousRefusals } = auditLogFor(deps, db, hmacKey);
  if (handle.migrated?.includes(KEYED_CHAIN_MIGRATION)) await auditLog.markKeyedStart();
  const sessionStore = sessionStoreFor(config, handle);
  const rateLimiter = rateLimiterFor(config, parts, db);
  const metrics = parts.metrics;
  const certification = retried(() =>
    createCertificationService(config, handle, { upstream: certificationUpstream, metrics }),
  );
  const monitors = await openMonitors(deps, handle, auditLog, certification);
  const services: Services = {
    db,
    hmacKey,
    auditLog,
    anonymousRefusals,
    sessionStore,
    sessions: createSessionContext(config, sessionStore, proxySignIns(config, auditLog)),
    suspensions: createSuspensionStore({ db, feed: handle.sessionFeed }),
    rateLimiter,
    teamRuns: createTeamRunWriter(db),
    support: createSupportServices({
      config,
      db,
      auditLog,
      hmacKey,
      rateLimiter,
      metrics,
      inquire,
      callContext: batchCallContext,
    }),
    clientCertification: createClientCertificationService({ db, hmacKey }),
    clientEvidenceKey: retried(() => loadClientEvidenceKey(config)),
    certification,
    monitors,
  };
  return services;
}
