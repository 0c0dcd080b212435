/**
 * The console's Prometheus metrics (GET /api/metrics): one prom-client registry per process, made by the
 * composition root (lib/server/root) and handed to whoever counts. Callers record events with the one-line
 * helpers below where the events happen; nothing here knows about HTTP.
 */
import "server-only";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface ConsoleMetrics {
  registry: Registry;
  requests: Counter<"route" | "method" | "status">;
  upstreamCalls: Counter<"operation" | "environment" | "status">;
  upstreamSeconds: Histogram<"operation" | "environment">;
  tokenRequests: Counter<"environment" | "status">;
  rateLimitRefusals: Counter;
  batchCards: Counter<"outcome">;
  batchQueueDepth: Gauge;
  certificationRuns: Counter<"status">;
  auditRows: Counter<"outcome">;
  auditBatchRows: Histogram;
  dbPool: Gauge<"database" | "state">;
  /** Per monitor (docs/design.md §13; labels bounded by the monitor cap): 1 passing, 0 failing; its last run's end. */
  monitorUp: Gauge<"monitor">;
  monitorLastRun: Gauge<"monitor">;
  /** Alert delivery attempts by the state each left its delivery in: delivered, pending (retried later), failed. */
  alertDeliveries: Counter<"state">;
}

/** A fresh registry with every series the console reports (tests make their own). */
export function createMetrics(): ConsoleMetrics {
  const registry = new Registry();
  // The event-loop lag is sampled every 100 ms rather than prom-client's 10: its timer alone cost about 9 ms of
  // CPU a second, idle or not, and a stall long enough to matter still lands in the histogram.
  collectDefaultMetrics({
    register: registry,
    prefix: "console_process_",
    eventLoopMonitoringPrecision: 100,
  });
  const registers = [registry];
  return { registry, ...callSeries(registers), ...workSeries(registers) };
}

/** Calls: the console's own API, the upstream's, its token endpoint. */
function callSeries(registers: Registry[]) {
  return {
    requests: new Counter({
      name: "console_http_requests_total",
      help: "Console API calls answered, by route template (ids as :id; unknown paths as unknown), method and status.",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    upstreamCalls: new Counter({
      name: "console_upstream_calls_total",
      help: "Calls to the Card Services API, by operation, environment and status (or failure kind).",
      labelNames: ["operation", "environment", "status"],
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: "console_upstream_call_duration_seconds",
      help: "Latency of calls to the Card Services API, answered or not.",
      labelNames: ["operation", "environment"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    tokenRequests: new Counter({
      name: "console_token_requests_total",
      help: "Token requests sent to {auth_url}, by environment and status.",
      labelNames: ["environment", "status"],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "console_rate_limit_refusals_total",
      help: "Calls refused with 429 rate_limited before reaching the upstream (RATE_LIMIT_PER_MINUTE).",
      registers,
    }),
  };
}

/** Work and storage: batches, certification runs, audit rows, database connections. */
function workSeries(registers: Registry[]) {
  return {
    batchCards: new Counter({
      name: "console_batch_cards_total",
      help: "Support batch cards finished, by outcome.",
      labelNames: ["outcome"],
      registers,
    }),
    batchQueueDepth: new Gauge({
      name: "console_batch_queue_depth",
      help: "Support batch cards waiting or in flight on this instance.",
      registers,
    }),
    certificationRuns: new Counter({
      name: "console_certification_runs_total",
      help: "Certification runs, by status (running when started; done or interrupted when ended).",
      labelNames: ["status"],
      registers,
    }),
    auditRows: new Counter({
      name: "console_audit_rows_total",
      help: "Audit rows, by outcome of the write (written, or failed: the row then went to the log).",
      labelNames: ["outcome"],
      registers,
    }),
    auditBatchRows: new Histogram({
      name: "console_audit_batch_rows",
      help: "Audit rows per insert statement (group commit): _count is statements, _sum rows.",
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 200],
      registers,
    }),
    dbPool: new Gauge({
      name: "console_db_pool_connections",
      help: "Database connections of this instance: the pool's size (max) and queries in flight (in_use).",
      labelNames: ["database", "state"],
      registers,
    }),
    monitorUp: new Gauge({
      name: "console_monitor_up",
      help: "Each monitor's state: 1 passing, 0 failing (a monitor with no finished run has no sample).",
      labelNames: ["monitor"],
      registers,
    }),
    monitorLastRun: new Gauge({
      name: "console_monitor_last_run_timestamp_seconds",
      help: "When each monitor's last run ended (Unix seconds).",
      labelNames: ["monitor"],
      registers,
    }),
    alertDeliveries: new Counter({
      name: "console_alert_deliveries_total",
      help: "Alert delivery attempts of this instance, by the state each left its delivery in: delivered, pending (to be retried) or failed (given up).",
      labelNames: ["state"],
      registers,
    }),
  };
}

export { routeLabel, methodLabel, segmentName, statusLabel } from "./routes";

/** The Card Services operation a URL calls, from its path (the card API client builds only these). */
export function operationOf(url: string): string {
  const path = new URL(url).pathname;
  if (path.endsWith("/reporting/v1/auth/token")) return "token";
  if (path.endsWith("/gift/balance-inquiry")) return "gift_balance_inquiry";
  if (path.endsWith("/balance-inquiry")) return "balance_inquiry";
  if (path.includes("/transactions/request-id/")) return "transaction_lookup";
  return "other";
}

/** Counts a certification run as it starts (`running`) and as it ends (`done`, `interrupted`). */
export function countCertificationEvent(
  metrics: ConsoleMetrics,
  event: { type: string; status?: string },
): void {
  if (event.type === "run_started") metrics.certificationRuns.inc({ status: "running" });
  if (event.type === "run_finished") metrics.certificationRuns.inc({ status: event.status ?? "unknown" });
}

/** The audit log with every append counted (written, or failed and logged by the caller instead). */
export function countedAuditLog<T extends { append: (...args: never[]) => Promise<unknown> }>(
  log: T,
  metrics: ConsoleMetrics,
): T {
  const append = async (...args: Parameters<T["append"]>) => {
    try {
      const row = await log.append(...args);
      metrics.auditRows.inc({ outcome: "written" });
      return row;
    } catch (error) {
      metrics.auditRows.inc({ outcome: "failed" });
      throw error;
    }
  };
  return { ...log, append } as T;
}
