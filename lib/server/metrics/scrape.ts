/**
 * One scrape: the gauges that describe shared state (the batch queue, the database connections) are read when
 * asked rather than tracked, so every instance reports the same queue and nothing drifts; then the registry.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { ServerConfig } from "@/lib/server/config";
import { queryRows } from "@/lib/server/database/rows";
import { logger } from "@/lib/server/util/logger";
import type { Database } from "@/lib/server/database";
import type { ConsoleMetrics } from "./index";

/** What a scrape reads: the database. */
interface Services {
  db: Database;
}

/** openDatabase's pool size for PostgreSQL; PGlite is one connection in the process. */
const POSTGRES_POOL_MAX = 10;

async function readQueueDepth(services: Services): Promise<number> {
  const rows = await queryRows<{ waiting: number }>(
    services.db,
    sql`select count(*)::int as waiting from support_batch_cards c
        join support_batches b on b.id = c.batch_id
        where c.finished_at is null and b.status in ('queued', 'running')`,
  );
  return Number(rows[0]?.waiting ?? 0);
}

/** Connections the console holds open on PostgreSQL (every instance: they share the application name). */
async function readOpenConnections(services: Services): Promise<number> {
  const rows = await queryRows<{ open: number }>(
    services.db,
    sql`select count(*)::int as open from pg_stat_activity where application_name = 'card-services-console'`,
  );
  return Number(rows[0]?.open ?? 0);
}

async function refreshGauges(services: Services, config: ServerConfig, metrics: ConsoleMetrics) {
  metrics.batchQueueDepth.set(await readQueueDepth(services));
  const database = config.databaseUrl ? "postgres" : "pglite";
  metrics.dbPool.set({ database, state: "max" }, config.databaseUrl ? POSTGRES_POOL_MAX : 1);
  metrics.dbPool.set(
    { database, state: "open" },
    config.databaseUrl ? await readOpenConnections(services) : 1,
  );
}

/**
 * The exposition. A database that does not answer leaves the shared gauges as last read: the counters matter
 * most when storage is down, so the scrape still succeeds.
 */
export async function metricsResponse(
  services: () => Promise<Services>,
  config: ServerConfig,
  metrics: ConsoleMetrics,
): Promise<Response> {
  try {
    await refreshGauges(await services(), config, metrics);
  } catch (error) {
    logger.warn(
      { error: error instanceof Error ? error.message : String(error) },
      "metrics: gauges not read",
    );
  }
  return new Response(await metrics.registry.metrics(), {
    headers: { "Content-Type": metrics.registry.contentType },
  });
}
