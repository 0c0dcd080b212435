/**
 * npm run test:faults (docs/design.md §14), the CI step after `npm test`:
 * 1. the full seeded fault certification of every starter client whose runtime is here, each with the workload
 *    docs/guide/starter-clients.md gives, in parallel, each against a console of its own, with short timeouts;
 *    a client passes when `certify-client` exits 0 (every plan passed) and no family was left out (the workload
 *    makes every kind of call, so each family applies to one of them);
 * 2. the flawed-client corpus (test/fixtures/fault-clients/flaws.ts): each flaw must be caught by its check
 *    with a smallest plan of at most 2 faults, and its replay line must fail again.
 * FAULT_CLIENTS=node,python narrows the clients (FAULT_CLIENTS=none: the corpus alone); FAULT_FLAWS=a,b or
 * FAULT_FLAWS=none narrows the corpus; FAULT_PLANS and FAULT_SEED change the clients' runs.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { FAULT_FAMILIES, parsePlanCode } from "@/lib/shared/fault-families";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { FLAWS, type Flaw } from "@/test/fixtures/fault-clients/flaws";
import {
  STARTER_LANGUAGES,
  hasRuntime,
  starterProgram,
  starterWorkload,
  type StarterLanguage,
} from "@/test/support/starter-workloads";

const root = path.resolve(import.meta.dirname, "..");
const build = path.join(os.tmpdir(), `fault-run-${process.pid}`);
const REFERENCE = path.join(root, "test/fixtures/fault-clients/reference-client.mjs");
/** How many flawed clients are certified at once, on one console. */
const CORPUS_PARALLEL = 3;

interface CliRun {
  code: number | null;
  output: string;
  seconds: number;
}

function certifyClient(server: ConsoleServer, args: string[]): Promise<CliRun> {
  const started = Date.now();
  const argv = ["--import", "tsx", "scripts/certify-client.ts", "--console", server.url, ...args];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const SHORT = ["--timeout-ms", "1000", "--time-limit", "20", "--out", path.join(root, "evidence", "faults")];

async function certifyStarter(
  server: ConsoleServer,
  name: StarterLanguage,
): Promise<{ name: string } & CliRun> {
  const result = await certifyClient(server, [
    "--command",
    starterWorkload(starterProgram(name, build)),
    "--plans",
    process.env.FAULT_PLANS ?? "40",
    "--seed",
    process.env.FAULT_SEED ?? "1",
    ...SHORT,
    "--junit",
    path.join(root, "evidence", "faults", `${name}.junit.xml`),
  ]);
  return { name, ...result };
}

/** Why a starter client's run does not pass, or null: a failed plan, or a family its workload never met. */
function starterProblem(run: CliRun): string | null {
  if (run.code !== 0) return `exit ${run.code}`;
  if (/Not applicable/.test(run.output)) return "a fault family did not apply to any call of the workload";
  const passed = /^PASS: (\d+) plan\(s\) after the baseline, 0 failed/m.exec(run.output);
  if (!passed || Number(passed[1]) < FAULT_FAMILIES.length)
    return `fewer than the ${FAULT_FAMILIES.length} families' plans passed`;
  return null;
}

/** The smallest plans a report names, with their checks. */
function reproducers(output: string): { checks: string; code: string }[] {
  return [...output.matchAll(/^FAIL (\S[^:]*): smallest plan (\S+) /gm)].map((match) => ({
    checks: match[1]!,
    code: match[2]!,
  }));
}

/**
 * The corpus's client timeout leaves room for a console as slow as a loaded CI machine (a token answer later than
 * 1 s there is a second token request in the plain run); its time limit still ends a Retry-After waited out soon.
 */
const CORPUS_LIMITS = ["--timeout-ms", "2000", "--time-limit", "12"];

/** A flaw is caught when its check fails with a plan of ≤ 2 faults, and replaying that plan fails it again. */
async function certifyFlaw(
  server: ConsoleServer,
  flaw: Flaw,
): Promise<{ problem: string | null; size: number }> {
  const command = `node ${REFERENCE} --flaw ${flaw.flaw}`;
  const first = await certifyClient(server, [
    ...["--command", command, "--families", flaw.families, "--plans", "4", "--seed", "42"],
    ...CORPUS_LIMITS,
    ...["--out", path.join(build, "corpus")],
  ]);
  const found = reproducers(first.output).filter((item) => item.checks.split(", ").includes(flaw.check));
  if (first.code !== 1 || found.length === 0)
    return { problem: `not caught by ${flaw.check} (exit ${first.code}):\n${first.output}`, size: 0 };
  const sizes = found.map((item) => {
    const parsed = parsePlanCode(item.code);
    return parsed.ok ? parsed.faults.length : 99;
  });
  const smallest = Math.min(...sizes);
  if (Math.max(...sizes) > 2)
    return { problem: `a smallest plan of ${Math.max(...sizes)} faults`, size: smallest };
  const code = found[sizes.indexOf(smallest)]!.code;
  const replay = await certifyClient(server, [
    ...["--command", command, "--plan", code, ...CORPUS_LIMITS],
    ...["--out", path.join(build, "corpus")],
  ]);
  if (replay.code !== 1 || !replay.output.includes(flaw.check))
    return { problem: `the replay of ${code} did not fail ${flaw.check}:\n${replay.output}`, size: smallest };
  console.log(`caught ${flaw.flaw} (${flaw.breaks}): ${flaw.check} with ${code}`);
  return { problem: null, size: smallest };
}

async function certifyCorpus(server: ConsoleServer, flaws: readonly Flaw[]): Promise<string[]> {
  const queue = [...flaws];
  const problems: string[] = [];
  const sizes: number[] = [];
  const worker = async () => {
    for (let flaw = queue.shift(); flaw; flaw = queue.shift()) {
      const { problem, size } = await certifyFlaw(server, flaw);
      if (size > 0) sizes.push(size);
      if (problem) problems.push(`${flaw.flaw}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: CORPUS_PARALLEL }, worker));
  const sorted = sizes.sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
  console.log(
    `\ncorpus: ${flaws.length - problems.length}/${flaws.length} flawed clients caught; median smallest plan ${median} fault(s)`,
  );
  return problems;
}

function selected<T extends string>(variable: string | undefined, all: readonly T[]): T[] {
  if (variable === "none") return [];
  return variable ? all.filter((item) => variable.split(",").includes(item)) : [...all];
}

async function main(): Promise<number> {
  mkdirSync(build, { recursive: true });
  const wanted = selected(process.env.FAULT_CLIENTS, STARTER_LANGUAGES);
  const names = wanted.filter(hasRuntime);
  const skipped = wanted.filter((name) => !names.includes(name));
  const flaws = FLAWS.filter((flaw) => selected(process.env.FAULT_FLAWS, [flaw.flaw]).length > 0);
  const servers = await Promise.all(
    [...names, ...(flaws.length ? ["corpus"] : [])].map(() => startConsole()),
  );
  try {
    const [results, problems] = await Promise.all([
      Promise.all(names.map((name, index) => certifyStarter(servers[index]!, name))),
      flaws.length ? certifyCorpus(servers.at(-1)!, flaws) : Promise.resolve([]),
    ]);
    const starterProblems = results.map(starterProblem);
    results.forEach((result, index) => {
      const verdict = starterProblems[index] ?? "passed";
      console.log(`\n===== ${result.name}: ${verdict} in ${result.seconds.toFixed(0)} s =====`);
      console.log(result.output.trim().split("\n").slice(-12).join("\n"));
    });
    for (const problem of problems) console.log(`\nFLAW NOT CAUGHT ${problem}`);
    const failed = starterProblems.filter(Boolean).length;
    if (skipped.length > 0) console.log(`\nskipped (no runtime): ${skipped.join(", ")}`);
    console.log(
      `\nstarter clients: ${results.length - failed} passed, ${failed} failed; flawed clients: ${flaws.length - problems.length} caught, ${problems.length} missed`,
    );
    return failed === 0 && problems.length === 0 ? 0 : 1;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(build, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
