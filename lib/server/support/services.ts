/**
 * The support desk's services: the database, the audit log and HMAC key, the card vault and the batch runner,
 * built once per configuration by the composition root (lib/server/root) from what it hands in.
 */
import "server-only";
import type { AuditLog } from "@/lib/server/audit";
import type { ServerConfig } from "@/lib/server/config";
import type { Database } from "@/lib/server/database";
import { spendUpstreamCall, type RateLimiter } from "@/lib/server/http/rate-limit";
import type { ConsoleMetrics } from "@/lib/server/metrics";
import { createBatchRunner, type BatchCallContext, type DetachedInquiry } from "./batch-runner";
import type { SupportBatchDeps } from "./batches";
import { createCardVault } from "./card-vault";

export type SupportServices = SupportBatchDeps;

export interface SupportServiceDeps {
  config: ServerConfig;
  db: Database;
  auditLog: AuditLog;
  hmacKey: string;
  rateLimiter: RateLimiter;
  metrics: ConsoleMetrics;
  inquire: DetachedInquiry;
  callContext: BatchCallContext;
}

export function createSupportServices(deps: SupportServiceDeps): SupportServices {
  const { config, db, auditLog, hmacKey, rateLimiter, metrics, inquire, callContext } = deps;
  const vault = createCardVault(hmacKey);
  const runner = createBatchRunner({
    db,
    auditLog,
    vault,
    inquire,
    callContext,
    metrics,
    concurrency: config.supportBatch.concurrency,
    // A card's claim outlives the upstream timeout, a token request and a retry after 401.
    cardLeaseMs: config.timeoutMs * 3 + 5_000,
    // Each card counts against its owner's RATE_LIMIT_PER_MINUTE, as a single lookup does; a used-up budget
    // pauses the batch until the window ends.
    beforeCall: (actor) => spendUpstreamCall(rateLimiter, actor.userId, config.rateLimitPerMinute),
  });
  return { db, auditLog, hmacKey, vault, runner, maxCards: config.supportBatch.maxCards };
}
