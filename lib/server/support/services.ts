/**
 * The support desk's per-process services: the database, the audit log and HMAC key, the card vault and the batch
 * runner, built once per configuration.
 * The database, audit log and HMAC key are lib/server/root/services' (one per process, shared with every route).
 */
import "server-only";
import { batchBalanceInquiry, batchTokenSource } from "@/lib/server/inquiry/deps";
import { getConfig, type ServerConfig } from "@/lib/server/config";
import { processSingletonFor, setProcessSingleton } from "@/lib/server/process-singleton";
import { spendUpstreamCall } from "@/lib/server/http/rate-limit";
import { getServices } from "@/lib/server/root/services";
import { createBatchRunner } from "./batch-runner";
import type { SupportBatchDeps } from "./batches";
import { createCardVault } from "./card-vault";

export type SupportServices = SupportBatchDeps;

async function build(config: ServerConfig): Promise<SupportServices> {
  const { db, auditLog, hmacKey, rateLimiter } = await getServices(config);
  const vault = createCardVault(hmacKey);
  const runner = createBatchRunner({
    db,
    auditLog,
    vault,
    inquire: batchBalanceInquiry(config),
    tokenSource: batchTokenSource(config),
    concurrency: config.supportBatch.concurrency,
    // A card's claim outlives the upstream timeout, a token request and a retry after 401.
    cardLeaseMs: config.timeoutMs * 3 + 5_000,
    // Each card counts against its owner's RATE_LIMIT_PER_MINUTE, as a single lookup does; a used-up budget
    // pauses the batch until the window ends.
    beforeCall: (actor) => spendUpstreamCall(rateLimiter, actor.userId, config.rateLimitPerMinute),
  });
  return { db, auditLog, hmacKey, vault, runner, maxCards: config.supportBatch.maxCards };
}

export function supportServices(config: ServerConfig = getConfig()): Promise<SupportServices> {
  const pending = processSingletonFor("support-services", config, build);
  // A failed start (database unreachable) is retried by the next call.
  pending.catch(() => setProcessSingleton("support-services", undefined));
  return pending;
}
