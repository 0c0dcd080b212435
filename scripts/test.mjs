// `npm test`: lint, type check, module graph, unit tests, production build, integration and browser tests.
// Prints one closing line "N passed, N failed" summed over every Vitest run.
//
// The steps run in two lanes at once: route types → type check → build → bundle budget → integration and browser
// tests, and lint → module graph → unit tests. On two cores the run is bound by CPU from start to end, so its
// time is the work it does: each check runs once (tsc, not the build, checks types; dependency-cruiser, not
// ESLint, looks for cycles). tsc reads .next/types, which the build rewrites, so those two stay in one lane. A
// check run beside another prints its output when it ends, under its title; the integration run prints as it goes.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const resultsDir = path.join(root, "test-results");
mkdirSync(resultsDir, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const startedAt = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs one step; `buffered` keeps its output until it ends, so two lanes' output does not interleave. */
function run(title, command, args, { buffered, env }) {
  const since = Date.now();
  if (!buffered) console.log(`\n── ${title} ──`);
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
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

/**
 * Type check, then the build (stopping there when it fails), then the bundle budget; true when built. tsc checks
 * the whole tree, the routes' generated types included (`next typegen` writes them first), so the build is told
 * not to run the same check again (next.config.js).
 */
async function buildLane() {
  const generated = await check("route types (next typegen)", bin("next"), ["typegen"], beside);
  const typed = generated && (await check("type check (tsc)", bin("tsc"), ["--noEmit"], beside));
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
  return { ok: typed && small, built };
}

async function checkLane() {
  const linted = await check("lint (eslint, prettier, knip)", "npm", ["run", "--silent", "lint"], beside);
  const graph = await check(
    "module graph (dependency-cruiser: no cycle, no crossed boundary)",
    "npm",
    ["run", "--silent", "depcheck"],
    beside,
  );
  const unit = await vitest("unit tests", ["unit"], beside);
  return linted && graph && unit;
}

/** The build lane, then (unless the build failed) the integration and browser tests against that build. */
async function serverLane() {
  const { ok, built } = await buildLane();
  if (!built) return false;
  const tested = await vitest("integration and browser tests", ["integration", "browser"], {
    buffered: false,
  });
  return ok && tested;
}

// Keep going after a failing check so one report shows everything; stop when the build itself fails.
const [serverOk, checksOk] = await Promise.all([serverLane(), checkLane()]);
const ok = serverOk && checksOk;

console.log(`\nnpm test took ${seconds(startedAt)}`);
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
process.exit(ok && totals.failed === 0 ? 0 : 1);
