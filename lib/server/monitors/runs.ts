/**
 * One run of a monitor: a docs/design.md §8 certification run with the server's credentials of the monitor's environment, kept
 * beside the monitor, judged when it ends; a change of state queues an alert.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { CertificationService, Operator } from "@/lib/server/certification/service";
import type { SessionState } from "@/lib/server/session";
import { logger } from "@/lib/server/util/logger";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { RunState } from "@/lib/shared/certification-contract";
import { alertBody } from "./alert";
import type { MonitorRow, MonitorStore } from "./store";

/** Runs are made by the system user `monitor` (docs/design.md §13), named after the monitor for people. */
function monitorOperator(monitor: Pick<MonitorRow, "name">): Operator {
  return { id: "monitor", name: `Monitor ${monitor.name}` };
}

/**
 * The credentials a monitor runs with: the demo client on the embedded sandbox, else the server's
 * (CARD_API_CLIENT_*): a monitor runs on nobody's session.
 */
function monitorCaller(environment: EnvironmentName): { state: Pick<SessionState, "credentials"> } {
  return { state: environment === "embedded" ? { credentials: { kind: "demo" } } : {} };
}

export interface RunDeps {
  store: MonitorStore;
  certification: () => Promise<CertificationService>;
  now: () => Date;
  publicOrigin: string;
  /** Whether alerts go anywhere (ALERT_WEBHOOK_URL set); none are queued otherwise. */
  alerting: boolean;
  /** A delivery was queued: the deliverer tries it now (the run does not wait for it). */
  onAlert: () => void;
}

export interface StartedRun {
  runId: string;
  finished: Promise<void>;
}

/**
 * Starts a docs/design.md §8 run of `monitor` (its lease already held) and records it; the returned `finished` settles once the
 * run is judged and the lease released. A run that cannot start is recorded `broken` (failing) and rethrown.
 */
export async function startMonitorRun(
  deps: RunDeps,
  monitor: MonitorRow,
  kind: { scheduled: boolean; late: boolean },
): Promise<StartedRun> {
  const startedAt = deps.now();
  let started: { id: string; finished: Promise<void> };
  try {
    const service = await deps.certification();
    started = await service.start(
      monitorCaller(monitor.environment as EnvironmentName),
      {
        environment: monitor.environment as EnvironmentName,
        ...(monitor.caseIds && monitor.caseIds.length > 0 ? { cases: monitor.caseIds } : {}),
        // Never on a tester's word: only an admin can have set it (the routes check), and only for production.
        allow_production_gift: monitor.environment === "production" && monitor.allowProductionGift,
      },
      monitorOperator(monitor),
    );
  } catch (error) {
    const runId = randomUUID();
    await deps.store.addRun({ runId, monitorId: monitor.id, ...kind, startedAt, status: "broken" });
    await judge(deps, monitor, runId, { status: "broken", passed: 0, failed: 0, failed_cases: [] });
    await deps.store.release(monitor.id);
    throw error;
  }
  await deps.store.addRun({
    runId: started.id,
    monitorId: monitor.id,
    ...kind,
    startedAt,
    status: "running",
  });
  const finished = started.finished
    .then(() => settle(deps, monitor, started.id))
    .catch((error: unknown) =>
      logger.error(
        {
          monitor_id: monitor.id,
          run_id: started.id,
          error: error instanceof Error ? error.message : String(error),
        },
        "monitor run not judged",
      ),
    )
    .finally(() => deps.store.release(monitor.id).catch(() => undefined));
  return { runId: started.id, finished };
}

/** The ended docs/design.md §8 run's outcome, as the monitor keeps it. */
function outcomeOf(run: RunState | undefined): RunOutcome {
  if (!run) return { status: "broken", passed: 0, failed: 0, failed_cases: [] };
  const failedCases = run.results.filter((result) => result.verdict === "fail").map((result) => result.id);
  return {
    status: run.status,
    passed: run.results.filter((result) => result.verdict === "pass").length,
    failed: failedCases.length,
    failed_cases: failedCases,
  };
}

interface RunOutcome {
  status: string;
  passed: number;
  failed: number;
  failed_cases: string[];
}

/** Judges the runs an instance that died left "running", so their monitor's state and alerts go on. */
export async function settleOrphanedRuns(deps: RunDeps): Promise<void> {
  for (const { runId, monitor } of await deps.store.orphanedRuns(deps.now())) {
    if (await deps.store.takeOrphan(runId)) await settle(deps, monitor, runId);
  }
}

async function settle(deps: RunDeps, monitor: MonitorRow, runId: string): Promise<void> {
  const service = await deps.certification();
  const outcome = outcomeOf(await service.store.get(runId));
  await judge(deps, monitor, runId, outcome);
}

/** Records the outcome, moves the state, queues the alert a change sends, and keeps the newest runs only. */
async function judge(deps: RunDeps, monitor: MonitorRow, runId: string, outcome: RunOutcome): Promise<void> {
  const { store } = deps;
  await store.finishRun(runId, {
    status: outcome.status,
    passed: outcome.passed,
    failed: outcome.failed,
    failedCases: outcome.failed_cases,
    finishedAt: deps.now(),
  });
  const judged = await store.judge(monitor.id, outcome);
  if (judged?.alert && deps.alerting) {
    const { monitor: current, alert } = judged;
    const now = deps.now();
    const body = alertBody({
      type: alert,
      at: now,
      monitor: { id: current.id, name: current.name, environment: current.environment as EnvironmentName },
      run: { id: runId, ...outcome },
      failingRuns: current.failingRuns,
      publicOrigin: deps.publicOrigin,
    });
    const queued = await store.addDelivery({
      id: randomUUID(),
      monitorId: monitor.id,
      runId,
      type: alert,
      body: JSON.stringify(body),
      state: "pending",
      attempts: 0,
      createdAt: now,
      retryFrom: now,
      nextAttemptAt: now,
    });
    if (queued) deps.onAlert();
  }
  await store.prune(monitor.id);
}
