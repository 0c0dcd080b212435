/**
 * Monitors (docs/design.md §13): what the routes do (create, list, read, change, run now, delete, deliveries,
 * redeliver, test alert) and the scheduler every instance runs, with its alert deliverer beside it (a queue
 * apart: no run waits for a receiver). One per process, built in the composition root (lib/server/root) over the
 * root's database, certification service, audit log and metrics; `now` and `fetch` are injectable for tests.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { recordAudit, type AuditSink } from "@/lib/server/audit/record";
import type { CertificationService } from "@/lib/server/certification/service";
import type { ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import type { EnvironmentName, Role } from "@/lib/shared/contracts";
import { maskCardNumbersInText } from "@/lib/shared/masking";
import { MONITOR_DELIVERIES_SHOWN, MONITOR_RUNS_SHOWN } from "@/lib/shared/monitor-rules";
import {
  type AlertType,
  type CreateMonitorInput,
  type DeliveryView,
  type MonitorDetailResponse,
  type MonitorListResponse,
  type MonitorRunView,
  type MonitorState,
  type MonitorView,
  type TestAlertInput,
  type UpdateMonitorInput,
} from "@/lib/shared/monitors-api";
import type { Counter } from "prom-client";
import { alertBody } from "./alert";
import { AlertDeliverer } from "./deliveries";
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
  /** `console_alert_deliveries_total{state}`. */
  deliveryCounter?: Pick<Counter<"state">, "inc">;
  now?: () => Date;
  fetch?: typeof fetch;
  /** Tests shorten an attempt's 10 s bound. */
  attemptTimeoutMs?: number;
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

const isAdmin = (user: MonitorUser) => user.roles.includes("admin");

/** Whether `user` may change, run, pause or delete the monitor: its owner, or an admin. */
function manages(row: MonitorRow, user: MonitorUser): boolean {
  return row.createdBy === user.id || isAdmin(user);
}

/**
 * Lowering the period of a production monitor an admin allowed Gift Balance Inquiries (real transactions) is an
 * admin's decision, not its owner's.
 */
function assertMayChangeEvery(row: MonitorRow, input: UpdateMonitorInput, user: MonitorUser): void {
  const lowered = input.every_minutes !== undefined && input.every_minutes < row.everyMinutes;
  if (!lowered || isAdmin(user) || row.environment !== "production" || !row.allowProductionGift) return;
  throw new ApiError(
    "forbidden_by_role",
    "Only an admin may run a production monitor that sends Gift Balance Inquiries more often.",
    { action: "every_minutes", roles: [...user.roles], allowed_roles: ["admin"] },
  );
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    type: row.type as AlertType,
    created_at: row.createdAt.toISOString(),
    attempts: row.attemptLog,
    state: row.state as DeliveryView["state"],
    next_attempt_at: row.state === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  };
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
  user: MonitorUser,
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
    alert_after_failures: row.alertAfterFailures,
    failing_runs: row.failingRuns,
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
    can_manage: manages(row, user),
    running: row.busyUntil !== null && row.busyUntil > now,
    delivery_problem: problem
      ? {
          type: problem.type,
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
  /** null: alerts are off (no ALERT_WEBHOOK_URL). */
  private readonly deliverer: AlertDeliverer | null;
  private ticking: Promise<void> | undefined;
  /** A kick arrived during a pass: one more pass follows it (a new monitor must not wait for the next tick). */
  private again = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Wakes the scheduler when a run comes due before the next tick: a run starts on time, not up to a tick late. */
  private wake: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(private readonly deps: MonitorDeps) {
    this.now = deps.now ?? (() => new Date());
    const { webhookUrl, webhookSecret, previousWebhookSecret } = deps.config.alerts;
    this.deliverer = webhookUrl
      ? new AlertDeliverer({
          store: deps.store,
          webhookUrl,
          secrets: [webhookSecret, previousWebhookSecret],
          now: this.now,
          fetch: deps.fetch ?? fetch,
          ...(deps.deliveryCounter ? { counter: deps.deliveryCounter } : {}),
          ...(deps.attemptTimeoutMs ? { attemptTimeoutMs: deps.attemptTimeoutMs } : {}),
        })
      : null;
  }

  private get runDeps(): RunDeps {
    return {
      store: this.deps.store,
      certification: this.deps.certification,
      now: this.now,
      publicOrigin: this.deps.config.publicOrigins[0] ?? "",
      alerting: this.deliverer !== null,
      onAlert: () => void this.deliverer?.kick(),
    };
  }

  /** Where alerts go: the receiver's host only (a webhook's path and query may hold its token). */
  private alertTarget(): MonitorListResponse["alerts"] {
    const { webhookUrl, webhookSecret } = this.deps.config.alerts;
    return { host: webhookUrl ? new URL(webhookUrl).host : null, signed: Boolean(webhookSecret) };
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
      // Masked once, here: the name reaches the page, the log, the metrics and every alert.
      name: maskCardNumbersInText(input.name),
      environment: input.environment,
      caseIds,
      everyMinutes: input.every_minutes,
      alertAfterFailures: input.alert_after_failures ?? 1,
      failingRuns: 0,
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
    return monitorView(row, user, now, undefined, undefined);
  }

  async list(user: MonitorUser): Promise<MonitorListResponse> {
    const { store } = this.deps;
    const [rows, lastRuns, problems] = await Promise.all([
      store.list(),
      store.lastRuns(),
      store.deliveryProblems(),
    ]);
    const now = this.now();
    return {
      monitors: rows.map((row) =>
        monitorView(
          row,
          user,
          now,
          lastRuns.find((run) => run.monitorId === row.id),
          problems.find((problem) => problem.monitorId === row.id),
        ),
      ),
      alerts: this.alertTarget(),
    };
  }

  private async row(id: string): Promise<MonitorRow> {
    const row = /^[0-9a-f-]{36}$/.test(id) ? await this.deps.store.get(id) : undefined;
    if (!row) throw new ApiError("not_found", `There is no monitor ${JSON.stringify(id)}.`);
    return row;
  }

  /** The monitor, for its owner or an admin; anyone else is told it does not exist (404), as for a change. */
  private async managed(id: string, user: MonitorUser): Promise<MonitorRow> {
    const row = await this.row(id);
    if (!manages(row, user))
      throw new ApiError("not_found", `There is no monitor ${JSON.stringify(id)} of yours.`);
    return row;
  }

  async detail(id: string, user: MonitorUser): Promise<MonitorDetailResponse> {
    const row = await this.row(id);
    const { store } = this.deps;
    const [runs, problems] = await Promise.all([
      store.runs(id, MONITOR_RUNS_SHOWN),
      store.deliveryProblems(),
    ]);
    return {
      monitor: monitorView(
        row,
        user,
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
    const row = await this.managed(id, user);
    assertMayChangeEvery(row, input, user);
    if (input.allow_production_gift && row.environment !== "production") {
      throw new ApiError("validation_failed", "allow_production_gift applies only to production.", {
        fields: { allow_production_gift: ["applies only to production"] },
      });
    }
    const now = this.now();
    const changes: Partial<MonitorRow> = {
      ...(input.name !== undefined ? { name: maskCardNumbersInText(input.name) } : {}),
      ...(input.cases !== undefined ? { caseIds: await checkedCases(input.cases) } : {}),
      ...(input.paused !== undefined ? { paused: input.paused } : {}),
      ...(input.alert_after_failures !== undefined ? { alertAfterFailures: input.alert_after_failures } : {}),
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
    return monitorView(updated, user, now, (await this.deps.store.runs(id, 1))[0], undefined);
  }

  async remove(id: string, user: MonitorUser): Promise<MonitorView> {
    const row = await this.managed(id, user);
    await this.deps.store.remove(id);
    return monitorView(row, user, this.now(), undefined, undefined);
  }

  /** Runs the monitor now without moving its schedule; 409 `run_in_progress` while one of its runs is under way. */
  async runNow(id: string, user: MonitorUser): Promise<{ run_id: string }> {
    const row = await this.managed(id, user);
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

  /** The monitor's last deliveries, newest first (anyone who may see the monitor). */
  async deliveries(id: string): Promise<DeliveryView[]> {
    const row = await this.row(id);
    return (await this.deps.store.deliveries(row.id, MONITOR_DELIVERIES_SHOWN)).map(deliveryView);
  }

  /** Sends a delivery again with the same `webhook-id` (owner or admin). */
  async redeliver(id: string, deliveryId: string, user: MonitorUser): Promise<DeliveryView> {
    const row = await this.managed(id, user);
    const delivery = await this.deps.store.redeliver(row.id, deliveryId, this.now());
    if (!delivery)
      throw new ApiError("not_found", `Monitor ${row.id} has no delivery ${JSON.stringify(deliveryId)}.`);
    void this.deliverer?.kick();
    return deliveryView(delivery);
  }

  /** Queues a `monitor.test` alert, naming a monitor of the caller's when given; 409 when alerts are off. */
  async testAlert(input: TestAlertInput, user: MonitorUser): Promise<DeliveryView> {
    if (!this.deliverer) {
      throw new ApiError("alerts_off", "Alerts are off: ALERT_WEBHOOK_URL is not set on this server.");
    }
    const row = input.monitor_id ? await this.managed(input.monitor_id, user) : null;
    const now = this.now();
    const body = alertBody({
      type: "monitor.test",
      at: now,
      monitor: row ? { id: row.id, name: row.name, environment: row.environment as EnvironmentName } : null,
      run: null,
      publicOrigin: this.deps.config.publicOrigins[0] ?? "",
    });
    const delivery = {
      id: randomUUID(),
      monitorId: row?.id ?? null,
      runId: null,
      type: "monitor.test",
      body: JSON.stringify(body),
      state: "pending",
      attempts: 0,
      attemptLog: [],
      createdAt: now,
      retryFrom: now,
      nextAttemptAt: now,
      claim: null,
      claimedUntil: null,
      lastError: null,
    } satisfies DeliveryRow;
    await this.deps.store.addDelivery(delivery);
    void this.deliverer.kick();
    return deliveryView(delivery);
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

  /**
   * One pass: leases renewed, due runs claimed and started. Alerts are not sent here (the deliverer's own queue):
   * no receiver holds a run. Overlapping calls share one pass, and a call during a pass gets one more after it.
   */
  tick(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = this.pass().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async pass(): Promise<void> {
    do {
      this.again = false;
      await this.passOnce();
    } while (this.again && !this.stopped);
    await this.armWake();
  }

  /** Once started, a pass is set for the next due run when that is sooner than the next tick. */
  private async armWake(): Promise<void> {
    if (!this.timer || this.stopped) return;
    const now = this.now();
    const due = await this.deps.store.nextDue(now);
    if (!due || due.getTime() - now.getTime() >= TICK_MS) return;
    clearTimeout(this.wake);
    this.wake = setTimeout(() => this.kick(), due.getTime() - now.getTime());
    this.wake.unref?.();
  }

  private async passOnce(): Promise<void> {
    const { store } = this.deps;
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    await store.renew([...this.running], leaseUntil);
    await settleOrphanedRuns(this.runDeps);
    for (const monitor of await store.claimDue(now, leaseUntil)) {
      await this.startScheduled(monitor, now);
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

  /** A pass soon (a new monitor, a change), not at the next tick. */
  kick(): void {
    if (this.stopped) return;
    void this.tick().catch((error: unknown) =>
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, "monitor pass failed"),
    );
  }

  /** Starts the scheduler's timer and the deliverer (once); neither keeps the process alive. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.kick();
    this.timer = setInterval(() => this.kick(), TICK_MS);
    this.timer.unref?.();
    this.deliverer?.start();
  }

  /** Alerts due now are claimed (tests, which have no timer); resolves once claimed, not once delivered. */
  deliverDue(): Promise<void> {
    return this.deliverer?.kick() ?? Promise.resolve();
  }

  /** Attempts under way on this instance (tests). */
  get deliveriesInFlight(): number {
    return this.deliverer?.busy ?? 0;
  }

  /** Stops the timer and waits for a pass under way (runs already started end on their own), and the deliverer. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    clearTimeout(this.wake);
    this.timer = undefined;
    await Promise.all([this.ticking?.catch(() => undefined), this.deliverer?.stop()]);
  }
}
