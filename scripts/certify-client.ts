/**
 * npm run certify-client -- --command "<cmd>" [--console URL] [--plans N] [--seed N] [--plan CODE]
 *                           [--families a,b] [--timeout-ms MS] [--time-limit S] [--keep-cwd]
 *                           [--junit FILE] [--out DIR] [--cookie COOKIE] [--list-families]
 *
 * Fault certification (docs/design.md §14): starts a certification in `faults` mode on the console, runs the
 * application's command once plain (the baseline, which must pass), then under N fault plans (every family once
 * on the first call of the baseline it applies to, then seeded random plans of 1–3 faults), shrinks each failing
 * plan to its smallest, prints the line that replays it, and writes the signed bundle (and JUnit).
 * Exit 0: every plan passed; 1: a plan failed (or the baseline did); 2: usage error.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { PlanResult } from "@/lib/shared/client-certification-contract";
import {
  FAULT_FAMILIES,
  TOLERANT_READER_FAMILIES,
  findFaultFamily,
  parsePlanCode,
  planCode,
  type PlannedFault,
} from "@/lib/shared/fault-families";
import { generatePlans, shrinkPlan, type KindCounts } from "@/lib/shared/fault-plan-generation";
import { ConsoleApiError, FaultConsole, runCommand, type CommandRun } from "./certify-client-runner";
import { faultJunit } from "./certify-client-junit";

const USAGE = `Usage: npm run certify-client -- --command "<cmd>" [options]

  --command CMD        the application's workload, run with sh -c (required)
  --console URL        the console (default http://localhost:3000)
  --plans N            plans to run after the baseline (default 40)
  --seed N             seed of the random plans (default: random; printed)
  --plan CODE          replay this one plan after the baseline (e.g. gift#1:reset_after_commit)
  --families a,b       only these fault families
  --timeout-ms MS      CARD_API_TIMEOUT_MS given to the command (default 3000)
  --time-limit S       seconds one run of the command may take (default 30)
  --keep-cwd           run the command in the current directory, not a fresh empty one
  --junit FILE         write JUnit XML (one case per family and per check)
  --out DIR            where the signed bundle is written (default evidence)
  --cookie COOKIE      the console session cookie, when the console signs users in
  --list-families      print the fault families and exit

Exit status: 0 every plan passed, 1 a plan failed, 2 usage error.`;

class UsageError extends Error {}

function integer(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max)
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}.`);
  return parsed;
}

function parse() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        command: { type: "string" },
        console: { type: "string", default: "http://localhost:3000" },
        plans: { type: "string" },
        seed: { type: "string" },
        plan: { type: "string" },
        families: { type: "string" },
        "timeout-ms": { type: "string" },
        "time-limit": { type: "string" },
        "keep-cwd": { type: "boolean", default: false },
        junit: { type: "string" },
        out: { type: "string", default: "evidence" },
        cookie: { type: "string" },
        "list-families": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const families = values.families?.split(",").map((item) => item.trim());
  for (const family of families ?? [])
    if (!findFaultFamily(family))
      throw new UsageError(`--families: there is no fault family ${JSON.stringify(family)}.`);
  const plan = values.plan === undefined ? undefined : parsePlanCode(values.plan);
  if (plan && !plan.ok) throw new UsageError(`--plan: ${plan.error}`);
  if (!values.help && !values["list-families"] && !values.command)
    throw new UsageError("--command is required.");
  return {
    ...values,
    command: values.command ?? "",
    consoleUrl: values.console.replace(/\/+$/, ""),
    total: integer(values.plans, "--plans", 0, 1000, 40),
    seed: integer(values.seed, "--seed", 0, 2 ** 31 - 1, Math.floor(Math.random() * 2 ** 31)),
    timeoutMs: integer(values["timeout-ms"], "--timeout-ms", 200, 60_000, 3000),
    timeLimitMs: integer(values["time-limit"], "--time-limit", 1, 3600, 30) * 1000,
    families: families?.map((id) => findFaultFamily(id)!),
    plan: plan?.ok ? plan.faults : undefined,
  };
}

type Options = ReturnType<typeof parse>;

interface PlanRun {
  code: string;
  result: PlanResult;
  run: CommandRun;
  failed: string[];
}

/** The failing checks of a plan; running past the time limit fails it too. */
function failuresOf(result: PlanResult, run: CommandRun): string[] {
  const failed = result.checks.filter((check) => check.verdict === "fail").map((check) => check.id);
  return run.timedOut ? [...failed, "TIME-LIMIT"] : failed;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

class Certifier {
  private readonly ended = new Map<string, PlanRun>();
  runs = 0;

  constructor(
    private readonly options: Options,
    private readonly api: FaultConsole,
    private readonly id: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Arms the plan, runs the command, ends the plan; first runs the plan's tolerant-reader reference if needed. */
  async run(faults: readonly PlannedFault[], reproducerOf?: string): Promise<PlanRun> {
    const code = planCode(faults);
    // The tolerant-reader check compares with the same plan without its unknown content: run that first.
    const reference = faults.filter((fault) => !TOLERANT_READER_FAMILIES.has(fault.family));
    if (reference.length < faults.length && !this.ended.has(planCode(reference))) await this.run(reference);
    const { plan_id: planId } = await this.api.arm(this.id, code, reproducerOf);
    const run = await runCommand({
      command: this.options.command,
      env: this.env,
      keepCwd: this.options["keep-cwd"],
      timeLimitMs: this.options.timeLimitMs,
    });
    const result = await this.api.end(this.id, planId, run.exitCode);
    this.runs += 1;
    const planRun = { code, result, run, failed: failuresOf(result, run) };
    this.ended.set(code, planRun);
    return planRun;
  }
}

function line(index: number, total: number, planRun: PlanRun, label = ""): string {
  const counter = `[${String(index).padStart(String(total).length)}/${total}]`;
  const verdict = planRun.failed.length > 0 ? "FAIL" : "pass";
  const calls = planRun.result.calls.length;
  const missed = planRun.result.faults.filter((fault) => !fault.exercised).length;
  const note = missed > 0 ? `; ${missed} fault(s) not reached` : "";
  const failed = planRun.failed.length > 0 ? ` — ${planRun.failed.join(", ")}` : "";
  return `${counter} ${verdict} ${label}${planRun.code || "(baseline)"} (${calls} calls, exit ${planRun.run.exitCode ?? "none"}, ${(planRun.run.durationMs / 1000).toFixed(1)} s${note})${failed}`;
}

interface Reproducer {
  original: string;
  smallest: string;
  checks: string[];
  observed: string;
}

async function shrinkFailures(certifier: Certifier, failures: PlanRun[]): Promise<Reproducer[]> {
  const reproducers: Reproducer[] = [];
  const done = new Set<string>();
  const shrunk = new Set<string>();
  for (const failure of failures) {
    if (shrunk.has(failure.code)) continue;
    shrunk.add(failure.code);
    const faults = parsePlanCode(failure.code);
    if (!faults.ok) continue;
    const { smallest } = await shrinkPlan(faults.faults, async (candidate) => {
      const tried = await certifier.run(candidate);
      return tried.failed.some((check) => failure.failed.includes(check));
    });
    const code = planCode(smallest);
    if (done.has(code)) continue;
    done.add(code);
    const replay = await certifier.run(smallest, failure.code);
    const checks = replay.failed.length > 0 ? replay.failed : failure.failed;
    const check = replay.result.checks.find((item) => checks.includes(item.id));
    reproducers.push({
      original: failure.code,
      smallest: code,
      checks,
      observed: check?.observed ?? (replay.run.timedOut ? "The command ran past the time limit." : ""),
    });
  }
  return reproducers;
}

function countsOf(result: PlanResult): KindCounts {
  return result.counts as KindCounts;
}

/** Every plan after a passing baseline, then the failing ones shrunk; nothing when the baseline failed. */
async function runPlans(options: Options, certifier: Certifier, baseline: PlanRun) {
  const runs: PlanRun[] = [];
  if (baseline.failed.length > 0 || baseline.run.exitCode !== 0) {
    console.log(
      `The plain run must pass first: exit ${baseline.run.exitCode ?? "none"}, failed ${baseline.failed.join(", ") || "nothing"}.`,
    );
    console.log(baseline.run.tail.trim().split("\n").slice(-10).join("\n"));
    return { runs, notApplicable: [], reproducers: [] };
  }
  const generated = options.plan
    ? { single: [options.plan], random: [], notApplicable: [] }
    : generatePlans({
        counts: countsOf(baseline.result),
        total: options.total,
        seed: options.seed,
        families: options.families,
      });
  if (generated.notApplicable.length > 0)
    console.log(`Not applicable to this workload's calls: ${generated.notApplicable.join(", ")}`);
  const plans = [...generated.single, ...generated.random];
  for (const [index, plan] of plans.entries()) {
    const planRun = await certifier.run(plan);
    runs.push(planRun);
    console.log(line(index + 1, plans.length, planRun));
  }
  const failing = runs.filter((planRun) => planRun.failed.length > 0);
  if (failing.length > 0) console.log(`\nShrinking ${failing.length} failing plan(s)…`);
  const reproducers = failing.length > 0 ? await shrinkFailures(certifier, failing) : [];
  return { runs, notApplicable: generated.notApplicable, reproducers };
}

/** Each failure: its checks, its smallest plan, what was seen, and the one line that replays it. */
function report(options: Options, reproducers: Reproducer[]): void {
  console.log("");
  const timeout = options.timeoutMs === 3000 ? "" : ` --timeout-ms ${options.timeoutMs}`;
  for (const reproducer of reproducers) {
    const size = parsePlanCode(reproducer.smallest);
    const faults = size.ok ? size.faults.length : 0;
    console.log(
      `FAIL ${reproducer.checks.join(", ")}: smallest plan ${reproducer.smallest} (${faults} fault${faults === 1 ? "" : "s"}, from ${reproducer.original})`,
    );
    if (reproducer.observed) console.log(`  ${reproducer.observed}`);
    console.log(
      `  replay: npm run certify-client -- --console ${options.consoleUrl}${timeout} --command ${shellQuote(options.command)} --plan ${shellQuote(reproducer.smallest)}`,
    );
  }
}

async function main(): Promise<number> {
  const options = parse();
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (options["list-families"]) {
    for (const family of FAULT_FAMILIES)
      console.log(`${family.id.padEnd(24)} ${family.applies_to.join(",").padEnd(26)} ${family.description}`);
    return 0;
  }
  const startedAt = Date.now();
  const api = new FaultConsole(options.consoleUrl, options.cookie ?? process.env.CERTIFY_CLIENT_COOKIE);
  const started = await api.start(options.timeoutMs);
  const env = {
    CARD_API_AUTH_URL: started.auth_url,
    CARD_API_BASE_URL: started.base_url,
    CARD_API_CLIENT_ID: started.client_id,
    CARD_API_CLIENT_SECRET: started.client_secret,
    CARD_API_TIMEOUT_MS: String(options.timeoutMs),
  };
  console.log(`Fault certification ${started.id} on ${options.consoleUrl} (client ${started.client_id})`);
  console.log(`Seed ${options.seed}; the client's timeout ${options.timeoutMs} ms`);
  const certifier = new Certifier(options, api, started.id, env);

  const baseline = await certifier.run([]);
  console.log(line(0, 0, baseline, "baseline "));
  const { runs, notApplicable, reproducers } = await runPlans(options, certifier, baseline);
  await api.finish(started.id);
  const bundle = await api.evidence(started.id);
  mkdirSync(options.out, { recursive: true });
  const bundlePath = path.join(options.out, bundle.fileName);
  writeFileSync(bundlePath, bundle.bytes);
  if (options.junit) writeFileSync(options.junit, faultJunit({ baseline, runs, reproducers, notApplicable }));

  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const passed =
    baseline.failed.length === 0 &&
    baseline.run.exitCode === 0 &&
    reproducers.length === 0 &&
    runs.every((planRun) => planRun.failed.length === 0);
  report(options, reproducers);
  console.log(
    `${passed ? "PASS" : "FAIL"}: ${runs.length} plan(s) after the baseline, ${runs.filter((planRun) => planRun.failed.length > 0).length} failed, ${reproducers.length} reproducer(s); ${certifier.runs} runs in ${seconds} s; seed ${options.seed}`,
  );
  console.log(`Evidence: ${bundlePath}${options.junit ? `; JUnit: ${options.junit}` : ""}`);
  return passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof ConsoleApiError ? error.message : error);
    process.exit(1);
  },
);
