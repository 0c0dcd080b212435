/**
 * Runs the selected cases against one environment, one after another, and keeps the run's state in a
 * RunStore after every case: a route or the CLI follows it by events or by reading the store. The
 * operator's identity is a parameter (the signed-in user; the CLI's local user).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/server/util/errors";
import { selectCases, type CaseDefinition } from "./catalogue";
import { CaseContext, CaseStopped, NotApplicable, RunLedger, type RunSettings } from "./context";
import type { RunStore } from "./run-store";
import {
  countVerdicts,
  type CaseResult,
  type RunEvent,
  type RunEnvironment,
  type RunState,
  type Verdict,
} from "@/lib/shared/certification-contract";
import { UpstreamFailure } from "@/lib/server/card-api/transport";

export interface RunOptions extends Omit<RunSettings, "now" | "sleep"> {
  operator: string;
  operatorId?: string;
  clientId?: string;
  caseIds?: readonly string[];
  store: RunStore;
  onEvent?: (event: RunEvent) => void;
  /** Cancels the run between cases: the case under way finishes, the rest are not run, status `cancelled`. */
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  runId?: string;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A wait that a cancel cuts short (AUTH-03 may wait minutes): the case ends not applicable, since its token
 * was never seen to expire, and the run stops after it.
 */
function cancellableSleep(sleep: (ms: number) => Promise<void>, signal: AbortSignal | undefined) {
  if (!signal) return sleep;
  return (ms: number) =>
    new Promise<void>((resolve, reject) => {
      const stop = () => reject(new NotApplicable("The run was cancelled during this case's wait."));
      if (signal.aborted) return stop();
      signal.addEventListener("abort", stop, { once: true });
      void sleep(ms).then(() => {
        signal.removeEventListener("abort", stop);
        resolve();
      });
    });
}

function verdictOf(definition: CaseDefinition, context: CaseContext): { verdict: Verdict; reason?: string } {
  const failed = context.checks.failed;
  if (failed.length > 0) {
    const first = failed[0]!;
    return {
      verdict: "fail",
      reason: `${first.name}: expected ${first.expected}, observed ${first.observed}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ""}`,
    };
  }
  if (context.checks.items.length === 0) return { verdict: "fail", reason: "The case made no check." };
  return { verdict: definition.observational ? "observed" : "pass" };
}

async function runCase(
  definition: CaseDefinition,
  ledger: RunLedger,
  now: () => number,
): Promise<CaseResult> {
  const context = new CaseContext(definition.id, ledger);
  const startedAt = new Date(now()).toISOString();
  let outcome: { verdict: Verdict; reason?: string };
  try {
    await definition.run(context);
    outcome = verdictOf(definition, context);
  } catch (error) {
    if (error instanceof NotApplicable) {
      outcome = { verdict: "not_applicable", reason: error.message };
    } else {
      if (error instanceof UpstreamFailure) {
        context.checks.add("the upstream answers", "an HTTP answer", error.message, false);
      } else if (error instanceof ApiError) {
        // The token broker refuses with the token endpoint's exchange attached.
        const details = error.details as { exchange?: { id?: string } } | undefined;
        context.checks.add(
          "a token is issued",
          "a token",
          error.message,
          false,
          details?.exchange?.id ? [details.exchange.id] : undefined,
        );
      } else if (!(error instanceof CaseStopped)) {
        context.checks.add(
          "the case runs",
          "no error",
          error instanceof Error ? error.message : String(error),
          false,
        );
      }
      outcome = verdictOf(definition, context);
    }
  }
  return {
    id: definition.id,
    title: definition.title,
    spec_sections: definition.spec_sections,
    ...outcome,
    checks: context.checks.items,
    exchange_ids: context.exchanges.map((record) => record.id),
    upstream_ids: context.ids,
    token_fingerprints: [...context.fingerprints],
    started_at: startedAt,
    finished_at: new Date(now()).toISOString(),
  };
}

const IN_PROCESS_SANDBOX = "in-process embedded sandbox";

/** The run's addresses as configured, and what really served them (the evidence must not claim a server). */
export function runEnvironmentOf(environment: RunOptions["environment"]): RunEnvironment {
  return {
    name: environment.name,
    auth_url: environment.authUrl,
    base_url: environment.baseUrl,
    served_by: environment.transport === "embedded" ? IN_PROCESS_SANDBOX : environment.baseUrl,
  };
}

/** The state of a run about to start: it shares the ledger's exchanges and tokens as they grow. */
function newRun(
  options: RunOptions,
  definitions: CaseDefinition[],
  ledger: RunLedger,
  now: () => number,
): RunState {
  const { environment } = options;
  return {
    id: options.runId ?? randomUUID(),
    status: "running",
    environment: runEnvironmentOf(environment),
    client_id: options.clientId ?? options.profile.primary.clientId,
    operator: options.operator,
    ...(options.operatorId === undefined ? {} : { operator_id: options.operatorId }),
    allow_production_gift: options.allowProductionGift,
    case_ids: definitions.map((definition) => definition.id),
    total: definitions.length,
    done: 0,
    started_at: new Date(now()).toISOString(),
    results: [],
    exchanges: ledger.exchanges,
    tokens: ledger.tokens,
  };
}

/** Where a run's progress goes: the store after every case, the events as they happen. */
interface RunReporter {
  save(): Promise<void>;
  emit(event: RunEvent): void;
}

/** Runs the cases one after another, saving and telling each; stops between cases when cancelled. */
async function runCases(
  run: RunState,
  definitions: CaseDefinition[],
  ledger: RunLedger,
  reporter: RunReporter,
  options: Pick<RunOptions, "signal"> & { now: () => number },
): Promise<void> {
  const { now } = options;
  for (const [index, definition] of definitions.entries()) {
    if (options.signal?.aborted) break;
    const info = { id: definition.id, title: definition.title, spec_sections: definition.spec_sections };
    const at = new Date(now()).toISOString();
    reporter.emit({ type: "case_started", run_id: run.id, case: info, index, total: run.total, at });
    const result = await runCase(definition, ledger, now);
    run.results.push(result);
    run.done += 1;
    await reporter.save();
    reporter.emit({
      type: "case_finished",
      run_id: run.id,
      result,
      index,
      total: run.total,
      at: result.finished_at,
    });
  }
}

/** Marks the run over with `status`, saves it (or only tries, for a run that broke) and tells it. */
async function finishRun(
  run: RunState,
  status: RunState["status"],
  reporter: RunReporter,
  now: () => number,
): Promise<void> {
  run.status = status;
  run.finished_at = new Date(now()).toISOString();
  if (status === "interrupted") await reporter.save().catch(() => undefined);
  else await reporter.save();
  const summary = countVerdicts(run.results);
  reporter.emit({ type: "run_finished", run_id: run.id, status: run.status, summary, at: run.finished_at });
}

/** Runs a certification to the end and returns its final state. Throws UnknownCaseError before starting. */
export async function runCertification(options: RunOptions): Promise<RunState> {
  const now = options.now ?? Date.now;
  const definitions = selectCases(options.caseIds);
  const settings: RunSettings = {
    ...options,
    now,
    sleep: cancellableSleep(options.sleep ?? realSleep, options.signal),
    onWait: async (wait) => {
      if (wait) run.waiting = wait;
      else delete run.waiting;
      await reporter.save();
    },
  };
  const ledger = new RunLedger(settings);
  const run = newRun(options, definitions, ledger, now);
  // What leaves the run (store, events, the returned state) is cleaned once more of every secret it sent:
  // the cases already clean what they record, this catches what a new case might forget.
  const clean = <T>(value: T): T => ledger.secrets.scrub(value);
  const reporter: RunReporter = {
    save: () => options.store.save(clean(run)),
    emit: (event) => options.onEvent?.(clean(event)),
  };
  await reporter.save();
  reporter.emit({ type: "run_started", run_id: run.id, total: run.total, at: run.started_at });
  try {
    await runCases(run, definitions, ledger, reporter, { signal: options.signal, now });
  } catch (error) {
    // Cases catch their own failures; reaching here means the run itself broke (e.g. the store failed).
    await finishRun(run, "interrupted", reporter, now);
    throw error;
  }
  // A cancelled run keeps what ran: its bundle signs those cases and says the run was cancelled.
  await finishRun(run, options.signal?.aborted ? "cancelled" : "done", reporter, now);
  return clean(run);
}

/** 0 when every applicable case passed (observed counts as passed), 1 when one failed. */
export function runExitCode(run: RunState): 0 | 1 {
  return run.results.some((result) => result.verdict === "fail") ? 1 : 0;
}

/**
 * Starts a run in the background, as a route does (202 with the id): the run is in the store, status
 * `running`, before this returns; `finished` settles when it ends. Throws UnknownCaseError at once.
 */
export async function startCertification(
  options: RunOptions,
): Promise<{ id: string; finished: Promise<RunState> }> {
  selectCases(options.caseIds);
  const id = options.runId ?? randomUUID();
  let started!: () => void;
  const saved = new Promise<void>((resolve) => (started = resolve));
  const store: RunStore = {
    save: async (run) => {
      await options.store.save(run);
      started();
    },
    get: (runId) => options.store.get(runId),
    list: () => options.store.list(),
  };
  const finished = runCertification({ ...options, runId: id, store });
  finished.catch(() => started());
  await saved;
  return { id, finished };
}
