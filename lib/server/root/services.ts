/**
 * The process's stateful services, built once per configuration from lib/server/config: the database (PGlite in
 * DATA_DIR or DATABASE_URL), one audit log (so concurrent appends share a transaction), one session store and
 * one rate limiter. Every Next bundle of the process gets the same ones (lib/server/process-singleton).
 */
import "server-only";
import { checkpointFile, createAuditLog, type AuditLog } from "@/lib/server/audit";
import { getConfig, type ServerConfig } from "@/lib/server/config";
import {
  beforeDatabasesClose,
  getDatabase,
  storageSettingsFromConfig,
  type Database,
} from "@/lib/server/database";
import { createAnonymousRefusals, type AnonymousRefusals } from "@/lib/server/audit/anonymous-refusals";
import { generateHmacKey, loadOrCreateKey } from "@/lib/server/util/generated-key";
import { logger, registerSecret } from "@/lib/server/util/logger";
import { auditBatchCommitted, countedAuditLog } from "@/lib/server/metrics";
import { processSingleton, processSingletonFor } from "@/lib/server/process-singleton";
import { createRateLimiter, type RateLimiter } from "@/lib/server/http/rate-limit";
import { createSessionStore, type SessionStore } from "@/lib/server/session/store";

export interface Services {
  db: Database;
  auditLog: AuditLog;
  /** Refusals of anonymous callers: counted and summarised per address and minute, throttled past a limit. */
  anonymousRefusals: AnonymousRefusals;
  hmacKey: string;
  sessionStore: SessionStore;
  rateLimiter: RateLimiter;
}

/**
 * The idle timeout is for signed-in users (oidc, proxy). In AUTH_MODE=none the one local user on their own
 * machine keeps a session for its whole lifetime: an idle timeout would only make them type credentials again,
 * and there is nobody else to protect the session from (the console listens on loopback only).
 */
export function sessionIdleSeconds(config: ServerConfig): number {
  return config.authMode === "none" ? config.sessionTtlSeconds : config.sessionIdleSeconds;
}

export function getServices(config: ServerConfig = getConfig()): Promise<Services> {
  const holder = processSingletonFor("services", config, () => ({
    pending: null as Promise<Services> | null,
  }));
  if (!holder.pending) {
    const pending = buildServices(config);
    holder.pending = pending;
    // A failed start (database unreachable) is tried again by the next request.
    pending.catch(() => {
      if (holder.pending === pending) holder.pending = null;
    });
  }
  return holder.pending;
}

/**
 * Called once when the server starts (instrumentation): the database is opened and migrated then, not by the
 * first request (PGlite's start took tens of seconds under load). PGlite is awaited, so the server listens
 * with its database open; PostgreSQL opens in the background (a server that is down must not stop the start:
 * `/api/ready` waits for this same open and says why it failed). A failure is logged; the next request retries.
 */
export async function openServicesAtStart(config: ServerConfig = getConfig()): Promise<void> {
  const started = performance.now();
  const opening = getServices(config).then(
    () =>
      logger.info(
        { database: config.databaseUrl ? "postgres" : "pglite", ms: Math.round(performance.now() - started) },
        "database open",
      ),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      // A URL in an error message could carry a password.
      logger.error({ error: message.replace(/\/\/[^@\s]*@/g, "//***@") }, "database not opened at start");
    },
  );
  if (!config.databaseUrl) await opening;
}

async function buildServices(config: ServerConfig): Promise<Services> {
  const hmacKey = loadOrCreateKey({
    name: "AUDIT_HMAC_KEY",
    value: config.auditHmacKey,
    dataDir: config.dataDir,
    generate: generateHmacKey,
  });
  registerSecret(hmacKey);
  const { db, sessionFeed } = await getDatabase(storageSettingsFromConfig(config));
  const idleSeconds = sessionIdleSeconds(config);
  const auditLog = countedAuditLog(
    createAuditLog({
      db,
      hmacKey,
      checkpoints: { file: checkpointFile(config.dataDir), everyRows: 1000, everyMs: 60_000 },
      onBatch: auditBatchCommitted,
    }),
  );
  const anonymousRefusals = createAnonymousRefusals({ append: (entry) => auditLog.append(entry) });
  // At shutdown: the last summary rows, then the last checkpoint (covering them), before the database closes.
  beforeDatabasesClose(async () => {
    await anonymousRefusals.close();
    await auditLog.close();
  });
  return {
    db,
    hmacKey,
    auditLog,
    anonymousRefusals,
    sessionStore: createSessionStore({
      db,
      idleSeconds,
      absoluteSeconds: config.sessionTtlSeconds,
      // The idle check is as coarse as the touch interval: keep it well under the idle timeout.
      touchEverySeconds: Math.max(1, Math.min(30, Math.floor(idleSeconds / 5))),
      feed: sessionFeed,
    }),
    rateLimiter: createRateLimiter({
      db,
      // Unspent leases outlive a configuration change (tests), not the process: a restart forfeits them.
      leases: processSingleton(`rate-limit-leases|${config.databaseUrl ?? config.dataDir}`, () => new Map()),
    }),
  };
}
