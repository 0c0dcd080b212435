/**
 * The support desk's per-process services: the database, the audit log and HMAC key, the card vault and the batch
 * runner, built once per configuration.
 *
 * INTEGRATOR: `auditLog` is the one place to connect W1's per-process audit log singleton (two audit logs on one
 * database stay correct — the chain is race-safe — but one per process batches the writes).
 */
import "server-only";
import { createAuditLog } from "@/lib/audit";
import { runDetachedBalanceInquiry } from "@/lib/card-api/operations";
import { getConfig, type ServerConfig } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { generateHmacKey, loadOrCreateKey } from "@/lib/keys/generated-key";
import { processSingletonFor, setProcessSingleton } from "@/lib/process-singleton";
import { createBatchRunner } from "./batch-runner";
import type { SupportBatchDeps } from "./batches";
import { createCardVault } from "./card-vault";

export type SupportServices = SupportBatchDeps;

async function build(config: ServerConfig): Promise<SupportServices> {
  const { db } = await getDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const hmacKey = loadOrCreateKey({
    name: "AUDIT_HMAC_KEY",
    value: config.auditHmacKey,
    dataDir: config.dataDir,
    generate: generateHmacKey,
  });
  const auditLog = createAuditLog({ db, hmacKey });
  const vault = createCardVault(hmacKey);
  const runner = createBatchRunner({
    db,
    auditLog,
    vault,
    inquire: runDetachedBalanceInquiry,
    concurrency: config.supportBatch.concurrency,
    // A card's claim outlives the upstream timeout, a token request and a retry after 401.
    cardLeaseMs: config.timeoutMs * 3 + 5_000,
  });
  return { db, auditLog, hmacKey, vault, runner, maxCards: config.supportBatch.maxCards };
}

export function supportServices(config: ServerConfig = getConfig()): Promise<SupportServices> {
  const pending = processSingletonFor("support-services", config, build);
  // A failed start (database unreachable) is retried by the next call.
  pending.catch(() => setProcessSingleton("support-services", undefined));
  return pending;
}
