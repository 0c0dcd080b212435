/**
 * Monitors (docs/design.md §13): what the routes do (create, list, read, change, run now, delete) and the scheduler
 * every instance runs. One per process, built in the composition root (lib/server/root) over the root's
 * database, certification service and audit log; `now` and `fetch` are injectable for tests.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { recordAudit, type AuditSink } from "@/lib/server/audit/record";
import type { CertificationService } from "@/lib/server/certification/service";
import type { ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import type { EnvironmentName, Role } from "@/lib/shared/contracts";
import { MONITOR_RUNS_SHOWN } from "@/lib/shared/monitor-rules";
import {
  type CreateMonitorInput,
  type MonitorDetailResponse,
  type MonitorRunView,
  type MonitorState,
  type MonitorView,
  type UpdateMonitorInput,
} from "@/lib/shared/monitors-api";
import { deliverDue } from "./deliveries";
import { settleOrphanedRuns, startMonitorRun, type RunDeps } from "./runs";
import { isLate, nextRunAfter } from "./schedule";
import type { DeliveryRow, MonitorRow, MonitorRunRow, MonitorStore } from "./store";

/** How often each instance looks for due runs and alerts; a new monitor does not wait for it. */
const TICK_MS = 5_000;
/** A run's lease on its monitor, renewed every tick while it runs: a dead instance's lapses within this. */
const LEASE_MS = 120_000;

export interface MonitorDeps {
  config: ServerConfig;
  store: MonitorStore;
  certification: () => Promise<CertificationService>;
  auditLog: AuditSink;
  now?: () => Date;
  fetch?: typeof fetch;
}

export interface MonitorUser {
  id: string;
  roles: readonly Role[];
}

/** The system user the scheduler's audit rows name. */
const MONITOR_CALLER = {
  userId: "monitor",
  roles: [],
  clientAddress: null,
  cardMask: "first6last4",
} as const;

/** The catalogue (every case's module) loads when a monitor names cases, not with the scheduler at start. */
async function checkedCases(cases: readonly string[] | undefined): Promise<string[] | null> {
  if (!cases || cases.length === 0) return null;
  const { selectedCaseIds } = await import("@/lib/server/certification/catalogue");
  return selectedCaseIds(cases);
}

function assertMayAllowGift(user: MonitorUser, allow: boolean | undefined): void {
  if (!allow || user.roles.includes("admin")) return;
  throw new ApiError(
    "forbidden_by_role",
    "Only an admin may let a monitor send Gift Balance Inquiries in production (they record real transactions).",
    { action: "allow_production_gift", roles: [...user.roles], allowed_roles: ["admin"] },
  );
}

function runView(row: MonitorRunRow): MonitorRunView {
  return {
    id: row.runId,
    status: row.status,
    passed: row.passed,
    failed: row.failed,
    failed_cases: row.failedCases,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    scheduled: row.scheduled,
    late: row.late,
  };
}

function monitorView(
  row: MonitorRow,
  now: Date,
  lastRun: MonitorRunRow | undefined,
  problem: DeliveryRow | undefined,
): MonitorView {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment as EnvironmentName,
    cases: row.caseIds,
    every_minutes: row.everyMinutes,
    allow_production_gift: row.allowProductionGift,
    paused: row.paused,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    next_run_at: row.nextRunAt.toISOString(),
    last_run: lastRun
      ? {
          id: lastRun.runId,
          status: lastRun.status,
          passed: lastRun.passed,
          failed: lastRun.failed,
          finished_at: lastRun.finishedAt?.toISOString() ?? null,
        }
      : null,
    state: row.state as MonitorState,
    running: row.busyUntil !== null && row.busyUntil > now,
    delivery_problem: problem
      ? {
          event: problem.event,
          state: problem.state === "failed" ? "failed" : "pending",
          attempts: problem.attempts,
          last_error: problem.lastError,
          next_attempt_at: problem.nextAttemptAt?.toISOString() ?? null,
        }
      : null,
  };
}

export class MonitorService {
  private readonly now: () => Date;
  /** Monitors whose run this instance is running: their leases are renewed each tick. */
  private readonly running = new Set<string>();
  private ticking: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;

  constructor(private readonly deps: MonitorDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private get runDeps(): RunDeps {
    return {
      store: this.deps.store,
      certification: this.deps.certification,
      now: this.now,
      publicOrigin: this.deps.config.publicOrigins[0] ?? "",
      alerting: this.deps.config.alerts.webhookUrl !== undefined,
      onAlert: () => this.kick(),
    };
  }

  /** 400 `environment_unavailable` unless this console can certify `environment` now. */
  private async assertCertifiable(environment: EnvironmentName): Promise<void> {
    const environments = (await this.deps.certification()).environments();
    const found = environments.find((item) => item.name === environment);
    if (found?.certifiable) return;
    throw new ApiError(
      "environment_unavailable",
      found?.reason ?? `Environment ${environment} is not configured on this server.`,
      { available: environments.filter((item) => item.certifiable).map((item) => item.name) },
    );
  }

  async create(input: CreateMonitorInput, user: MonitorUser): Promise<MonitorView> {
    assertMayAllowGift(user, input.allow_production_gift);
    const caseIds = await checkedCases(input.cases);
    await this.assertCertifiable(input.environment);
    const now = this.now();
    const row: MonitorRow = {
      id: randomUUID(),
      name: input.name,
      environment: input.environment,
      caseIds,
      everyMinutes: input.every_minutes,
      allowProductionGift: input.allow_production_gift ?? false,
      paused: false,
      createdBy: user.id,
      createdAt: now,
      // A new monitor runs at once.
      nextRunAt: now,
      scheduledFor: null,
      busyUntil: null,
      state: "unknown",
    };
    await this.deps.store.insert(row);
    this.kick();
    return monitorView(row, now, undefined, undefined);
  }

  async list(): Promise<MonitorView[]> {
    const { store } = this.deps;
    const [rows, lastRuns, problems] = await Promise.all([
      store.list(),
      store.lastRuns(),
      store.deliveryProblems(),
    ]);
    const now = this.now();
    return rows.map((row) =>
      monitorView(
        row,
        now,
        lastRuns.find((run) => run.monitorId === row.id),
        problems.find((problem) => problem.monitorId === row.id),
      ),
    );
  }

  private async row(id: string): Promise<MonitorRow> {
    const row = /^[0-9a-f-]{36}$/.test(id) ? await this.deps.store.get(id) : undefined;
    if (!row) throw new ApiError("not_found", `There is no monitor ${JSON.stringify(id)}.`);
    return row;
  }

  async detail(id: string): Promise<MonitorDetailResponse> {
    const row = await this.row(id);
    const { store } = this.deps;
    const [runs, problems] = await Promise.all([
      store.runs(id, MONITOR_RUNS_SHOWN),
      store.deliveryProblems(),
    ]);
    return {
      monitor: monitorView(
        row,
        this.now(),
        runs[0],
        problems.find((problem) => problem.monitorId === id),
      ),
      runs: runs.map(runView),
    };
  }

  /** Pause, resume or change; a new period counts from the last scheduled start, a resume never makes a run late. */
  async update(id: string, input: UpdateMonitorInput, user: MonitorUser): Promise<MonitorView> {
    assertMayAllowGift(user, input.allow_production_gift);
    const row = await this.row(id);
    if (input.allow_production_gift && row.environment !== "production") {
      throw new ApiError("validation_failed", "allow_production_gift applies only to production.", {
        fields: { allow_production_gift: ["applies only to production"] },
      });
    }
    const now = this.now();
    const changes: Partial<MonitorRow> = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.cases !== undefined ? { caseIds: await checkedCases(input.cases) } : {}),
      ...(input.paused !== undefined ? { paused: input.paused } : {}),
      ...(input.allow_production_gift !== undefined
        ? { allowProductionGift: input.allow_production_gift }
        : {}),
    };
    if (input.every_minutes !== undefined) {
      changes.everyMinutes = input.every_minutes;
      changes.nextRunAt = nextRunAfter(row.scheduledFor ?? row.createdAt, input.every_minutes);
    }
    const nextRunAt = changes.nextRunAt ?? row.nextRunAt;
    if (input.paused === false && nextRunAt < now) changes.nextRunAt = now;
    const updated = await this.deps.store.update(id, changes);
    if (!updated) throw new ApiError("not_found", `There is no monitor ${JSON.stringify(id)}.`);
    this.kick();
    return monitorView(updated, now, (await this.deps.store.runs(id, 1))[0], undefined);
  }

  async remove(id: string): Promise<MonitorView> {
    const row = await this.row(id);
    await this.deps.store.remove(id);
    return monitorView(row, this.now(), undefined, undefined);
  }

  /** Runs the monitor now without moving its schedule; 409 `run_in_progress` while one of its runs is under way. */
  async runNow(id: string): Promise<{ run_id: string }> {
    const row = await this.row(id);
    const now = this.now();
    const claimed = await this.deps.store.claimNow(row.id, now, new Date(now.getTime() + LEASE_MS));
    if (!claimed) {
      throw new ApiError(
        "run_in_progress",
        `A run of monitor ${JSON.stringify(row.name)} is under way; wait for it.`,
      );
    }
    return { run_id: await this.launch(claimed, { scheduled: false, late: false }) };
  }

  private async launch(monitor: MonitorRow, kind: { scheduled: boolean; late: boolean }): Promise<string> {
    this.running.add(monitor.id);
    try {
      const started = await startMonitorRun(this.runDeps, monitor, kind);
      void started.finished.finally(() => this.running.delete(monitor.id));
      return started.runId;
    } catch (error) {
      this.running.delete(monitor.id);
      throw error;
    }
  }

  /** One pass: leases renewed, due runs claimed and started, due alerts sent. Overlapping calls share one pass. */
  tick(): Promise<void> {
    this.ticking ??= this.pass().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async pass(): Promise<void> {
    const { store } = this.deps;
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    await store.renew([...this.running], leaseUntil);
    await settleOrphanedRuns(this.runDeps);
    for (const monitor of await store.claimDue(now, leaseUntil)) {
      await this.startScheduled(monitor, now);
    }
    const { webhookUrl, webhookSecret } = this.deps.config.alerts;
    if (webhookUrl) {
      await deliverDue({ store, webhookUrl, webhookSecret, now: this.now, fetch: this.deps.fetch ?? fetch });
    }
  }

  private async startScheduled(monitor: MonitorRow, now: Date): Promise<void> {
    const late = monitor.scheduledFor ? isLate(monitor.scheduledFor, now) : false;
    let runId: string | null = null;
    try {
      runId = await this.launch(monitor, { scheduled: true, late });
    } catch (error) {
      logger.warn(
        { monitor_id: monitor.id, error: error instanceof Error ? error.message : String(error) },
        "monitor run could not start",
      );
    }
    await recordAudit(this.deps.auditLog, MONITOR_CALLER, {
      event: "monitor_run_started",
      outcome: runId ? "success" : "failure",
      environment: monitor.environment,
      operation: "certification_run",
      details: { monitor_id: monitor.id, run_id: runId, late },
    }).catch(() => undefined);
  }

  /** A pass soon (a new monitor, a queued alert), not at the next tick. */
  kick(): void {
    if (this.stopped) return;
    void this.tick().catch((error: unknown) =>
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, "monitor pass failed"),
    );
  }

  /** Starts the timer (once); it keeps no process alive. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.kick();
    this.timer = setInterval(() => this.kick(), TICK_MS);
    this.timer.unref?.();
  }

  /** Stops the timer and waits for a pass under way (runs already started end on their own). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking?.catch(() => undefined);
  }
}
