// `npm test`: lint, type check, module graph, unit tests, production build, integration and browser tests.
// `npm run test:quick` (--quick): lint, type check, module graph and unit tests alone, for the loop of a change.
// Closes with the CPU seconds of the slowest ten test files, the run's wall and CPU time, and one line
// "N passed, N failed" summed over every Vitest run.
//
// The steps run in two lanes at once. On two cores the run is bound by CPU from start to end, and its length is
// the build lane's: build → bundle budget → integration and browser tests. The checks lane runs beside it: the
// unit tests, then lint → module graph → route types → type check at a lower priority (nice), so they take
// what the build lane leaves and never starve it: lint and tsc fill the time the integration files wait on
// their servers. tsc reads .next/types, which the build rewrites, so the type check waits for the build to end; the
// build itself does not check types (tsc does, once). A check run beside another prints its output when it
// ends, under its title; the integration run prints as it goes.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const resultsDir = path.join(root, "test-results");
mkdirSync(resultsDir, { recursive: true });
const quick = process.argv.includes("--quick");
/** Each test file appends its CPU seconds here (test/setup/file-cpu.ts). */
const cpuLog = path.join(resultsDir, "file-cpu.jsonl");
rmSync(cpuLog, { force: true });

/** Linux's statfs type of a tmpfs. */
const TMPFS_MAGIC = 0x01021994;
const MEMORY_TEMP_MIN_FREE = 4 * 1024 ** 3;

/**
 * A temporary folder for the run's tests in memory (/dev/shm) when the machine has one with room, unless TMPDIR
 * was chosen: the embedded databases copied and synced by every file, PostgreSQL's cluster, the consoles' data
 * folders and Chromium's profiles then cost no disk I/O. On the 2-core machine the unit tests spent 30 of their
 * 64 s of CPU in the kernel with their folders on the disk, 6 of 37 in memory. Removed when the run ends.
 */
function memoryTempDir() {
  if (process.env.TMPDIR) return undefined;
  try {
    const { type, bavail, bsize } = statfsSync("/dev/shm");
    if (type !== TMPFS_MAGIC || bavail * bsize < MEMORY_TEMP_MIN_FREE) return undefined;
    const folder = mkdtempSync("/dev/shm/card-console-test-");
    // Like /tmp: the PostgreSQL cluster's folder inside belongs to the `postgres` user when run as root.
    chmodSync(folder, 0o1777);
    return folder;
  } catch {
    return undefined;
  }
}
const tempDir = memoryTempDir();
const removeTempDir = () => tempDir && rmSync(tempDir, { recursive: true, force: true });
if (tempDir) {
  console.log(`Temporary folders in memory: ${tempDir}`);
  // An interrupted run leaves nothing in memory either (its steps get the signal too).
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      removeTempDir();
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const startedAt = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
/** Lower priority for the checks lane, where the system has `nice` (Linux, macOS). */
const niceBinary = ["/usr/bin/nice", "/bin/nice"].find((file) => existsSync(file));

/**
 * Runs one step; `buffered` keeps its output until it ends, so two lanes' output does not interleave; `low`
 * runs it at a lower CPU priority (its child processes inherit it).
 */
function run(title, command, args, { buffered, env, low }) {
  const since = Date.now();
  if (!buffered) console.log(`\n── ${title} ──`);
  const [program, programArgs] =
    low && niceBinary ? [niceBinary, ["-n", "10", command, ...args]] : [command, args];
  const child = spawn(program, programArgs, {
    cwd: root,
    env: { ...process.env, TEST_CPU_LOG: cpuLog, ...(tempDir ? { TMPDIR: tempDir } : {}), ...env },
    stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.once("error", (error) => (output += `${error.message}\n`));
    child.once("close", (status) => {
      if (buffered) process.stdout.write(`\n── ${title} ──\n${output}`);
      console.log(`── ${title}: ${status === 0 ? "ok" : "FAILED"} in ${seconds(since)} ──`);
      resolve(status === 0);
    });
  });
}

/** A non-Vitest check (lint, type check, build) counts as one test in the closing line. */
async function check(title, command, args, options) {
  const ok = await run(title, command, args, options);
  if (ok) totals.passed += 1;
  else totals.failed += 1;
  return ok;
}

async function vitest(title, projects, options) {
  const outputFile = path.join(resultsDir, `vitest-${projects.join("-")}.json`);
  rmSync(outputFile, { force: true });
  const args = ["run", ...projects.flatMap((name) => ["--project", name])];
  const ok = await run(
    title,
    bin("vitest"),
    [...args, "--reporter=default", "--reporter=json", `--outputFile=${outputFile}`],
    options,
  );
  if (existsSync(outputFile)) {
    const report = JSON.parse(readFileSync(outputFile, "utf8"));
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    if (!ok && (report.numFailedTests ?? 0) === 0) totals.failed += 1; // a suite failed to load
  } else if (!ok) {
    totals.failed += 1;
  }
  return ok;
}

const beside = { buffered: true };
const besideLow = { buffered: true, low: true };

/** The production build (stopping there when it fails), then the bundle budget; true when built. */
async function buildLane() {
  // tsc checks the whole tree, the routes' generated types included, so the build does not (next.config.js).
  const built = await check(
    "production build (if needed)",
    process.execPath,
    [path.join(root, "scripts/ensure-build.mjs")],
    { ...beside, env: { CONSOLE_BUILD_TYPES_CHECKED: "1" } },
  );
  if (!built) return { ok: false, built };
  const small = await check(
    "first-load JS budget (≤ 180 KB gzip per route)",
    process.execPath,
    [path.join(root, "scripts/measure-bundles.mjs"), "--max-kb", "180"],
    beside,
  );
  return { ok: small, built };
}

/** Route types (`next typegen`, what the build would write) then tsc over the whole tree. */
async function typeCheck(options) {
  const generated = await check("route types (next typegen)", bin("next"), ["typegen"], options);
  return generated && (await check("type check (tsc)", bin("tsc"), ["--noEmit"], options));
}

/**
 * Unit tests, then lint, module graph and (once `buildDone` settles) the type check at the lower priority. The
 * unit tests keep the normal one: their hooks and a few of their tests have time limits, which a starved
 * process would miss; lint and tsc have none.
 */
async function checkLane(buildDone) {
  const unit = await vitest("unit tests", ["unit"], beside);
  const linted = await check("lint (eslint, prettier, knip)", "npm", ["run", "--silent", "lint"], besideLow);
  const graph = await check(
    "module graph (dependency-cruiser: no cycle, no crossed boundary)",
    "npm",
    ["run", "--silent", "depcheck"],
    besideLow,
  );
  await buildDone;
  const typed = await typeCheck(besideLow);
  return unit && linted && graph && typed;
}

/** The build lane, then (unless the build failed) the integration and browser tests against that build. */
async function serverLane(onBuilt) {
  const { ok, built } = await buildLane();
  onBuilt();
  if (!built) return false;
  const tested = await vitest("integration and browser tests", ["integration", "browser"], {
    buffered: false,
  });
  return ok && tested;
}

/** `npm run test:quick`: lint beside the type check, then the module graph and the unit tests. */
async function quickLanes() {
  const [linted, rest] = await Promise.all([
    check("lint (eslint, prettier, knip)", "npm", ["run", "--silent", "lint"], beside),
    (async () => {
      const typed = await typeCheck(beside);
      const graph = await check(
        "module graph (dependency-cruiser: no cycle, no crossed boundary)",
        "npm",
        ["run", "--silent", "depcheck"],
        beside,
      );
      const unit = await vitest("unit tests", ["unit"], beside);
      return typed && graph && unit;
    })(),
  ]);
  return linted && rest;
}

/** CPU seconds of this process's children that ended (Linux: /proc/self/stat's cutime + cstime). */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * The machine's busy and total core-seconds so far (Linux: /proc/stat). On a quiet machine the busy part over a
 * run is the run's CPU, Chromium's renderers and the daemonised PostgreSQL included, which the children's CPU
 * above misses: they are not reaped by this process's descendants.
 */
function machineCoreSeconds() {
  try {
    const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks;
    const busy = user + nice + system + irq + softirq + steal;
    return { busy: busy / 100, total: (busy + idle + iowait) / 100 };
  } catch {
    return undefined;
  }
}
const machineAtStart = machineCoreSeconds();

/** The slowest ten test files by CPU (what test/setup/file-cpu.ts measures, and what it leaves out). */
function printSlowestFiles() {
  if (!existsSync(cpuLog)) return;
  const files = readFileSync(cpuLog, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .sort((a, b) => b.cpu - a.cpu);
  const total = files.reduce((sum, file) => sum + file.cpu, 0);
  console.log(
    `\nCPU of the slowest ten of ${files.length} test files (${total.toFixed(0)} s in all; each file's worker` +
      " and the processes it started and stopped, not the run's shared consoles, Chromium or PostgreSQL):",
  );
  for (const file of files.slice(0, 10)) {
    console.log(
      `  ${file.cpu.toFixed(1).padStart(6)} s CPU ${file.wall.toFixed(1).padStart(6)} s wall  ${file.file}`,
    );
  }
}

let ok;
if (quick) {
  ok = await quickLanes();
} else {
  // Keep going after a failing check so one report shows everything; stop when the build itself fails.
  let buildEnded;
  const buildDone = new Promise((resolve) => (buildEnded = resolve));
  const [serverOk, checksOk] = await Promise.all([serverLane(buildEnded), checkLane(buildDone)]);
  ok = serverOk && checksOk;
}

removeTempDir();
printSlowestFiles();
const cpu = childrenCpuSeconds();
const machineAtEnd = machineCoreSeconds();
const machine =
  machineAtStart && machineAtEnd
    ? `; the machine's cores were busy ${(machineAtEnd.busy - machineAtStart.busy).toFixed(0)} s of ` +
      `${(machineAtEnd.total - machineAtStart.total).toFixed(0)}`
    : "";
console.log(
  `\nnpm ${quick ? "run test:quick" : "test"} took ${seconds(startedAt)}` +
    (cpu === undefined ? "" : ` (${cpu.toFixed(0)} s of CPU in its processes${machine})`),
);
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
process.exit(ok && totals.failed === 0 ? 0 : 1);
