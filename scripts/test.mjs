// `npm test`: lint, type check, module graph, unit tests, production build, integration and browser tests.
// Prints one closing line "N passed, N failed" summed over every Vitest run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const resultsDir = path.join(root, "test-results");
mkdirSync(resultsDir, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };

function run(title, command, args) {
  console.log(`\n── ${title} ──`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  return result.status === 0;
}

/** A non-Vitest check (lint, type check, build) counts as one test in the closing line. */
function check(title, command, args) {
  const ok = run(title, command, args);
  if (ok) totals.passed += 1;
  else totals.failed += 1;
  return ok;
}

function vitest(title, projects) {
  const outputFile = path.join(resultsDir, `vitest-${projects.join("-")}.json`);
  rmSync(outputFile, { force: true });
  const args = ["run", ...projects.flatMap((name) => ["--project", name])];
  const ok = run(title, bin("vitest"), [
    ...args,
    "--reporter=default",
    "--reporter=json",
    `--outputFile=${outputFile}`,
  ]);
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

const buildStep = () =>
  check("production build (if needed)", process.execPath, [path.join(root, "scripts/ensure-build.mjs")]);

const steps = [
  () => check("lint (eslint + prettier)", "npm", ["run", "--silent", "lint"]),
  () => check("type check (tsc)", bin("tsc"), ["--noEmit"]),
  () =>
    check("module graph (dependency-cruiser: no cycle, no crossed boundary)", "npm", [
      "run",
      "--silent",
      "depcheck",
    ]),
  () => vitest("unit tests", ["unit"]),
  buildStep,
  () =>
    check("first-load JS budget (≤ 180 KB gzip per route)", process.execPath, [
      path.join(root, "scripts/measure-bundles.mjs"),
      "--max-kb",
      "180",
    ]),
  () => vitest("integration and browser tests", ["integration", "browser"]),
];

let ok = true;
for (const step of steps) {
  if (!step()) {
    ok = false;
    // Keep going after a failing test run so one report shows everything; stop when the build itself fails.
    if (step === buildStep) break;
  }
}

console.log(
  `\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
process.exit(ok && totals.failed === 0 ? 0 : 1);
