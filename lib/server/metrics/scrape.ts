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

/** Every monitor's state and last run's end, as the database holds them (shared by every instance). */
async function refreshMonitorGauges(services: Services, metrics: ConsoleMetrics): Promise<void> {
  const rows = await queryRows<{ id: string; state: string; last: number | null }>(
    services.db,
    sql`select m.id, m.state,
          (select extract(epoch from max(r.finished_at))::float8 from monitor_runs r where r.monitor_id = m.id) as last
        from monitors m`,
  );
  // A deleted monitor's series go with it.
  metrics.monitorUp.reset();
  metrics.monitorLastRun.reset();
  for (const row of rows) {
    if (row.state !== "unknown") metrics.monitorUp.set({ monitor: row.id }, row.state === "passing" ? 1 : 0);
    if (row.last !== null) metrics.monitorLastRun.set({ monitor: row.id }, Number(row.last));
  }
}

export async function refreshGauges(services: Services, config: ServerConfig, metrics: ConsoleMetrics) {
  metrics.batchQueueDepth.set(await readQueueDepth(services));
  await refreshMonitorGauges(services, metrics);
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
