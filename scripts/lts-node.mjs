// Proves the console on a supported Node LTS, whatever Node runs this script: fetches that Node from the package
// registry (the `node-<platform>-<arch>` package holds the official binary), then runs the unit tests and a
// standalone smoke (start the built server, GET /api/health, one Balance Inquiry through the embedded sandbox)
// under it. `node scripts/lts-node.mjs [-- vitest filters…]`; LTS_NODE_VERSION picks the version.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { freePort } from "./free-port.mjs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const version = process.env.LTS_NODE_VERSION || "22.23.3";
const UNIT_TIMEOUT_MS = 20 * 60_000;
const SMOKE_TIMEOUT_MS = 90_000;

function fail(message) {
  console.error(`[lts-node] ${message}`);
  process.exit(1);
}

/** The Node binary of `version`, installed once into a folder of its own under the temp directory. */
function ltsNode() {
  const name = `node-${process.platform}-${process.arch}`;
  const prefix = path.join(os.tmpdir(), `card-console-${name}-${version}`);
  const binary = path.join(prefix, "node_modules", name, "bin", "node");
  if (!existsSync(binary)) {
    console.log(`[lts-node] installing ${name}@${version}`);
    const installed = spawnSync(
      "npm",
      ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, `${name}@${version}`],
      { stdio: "inherit", timeout: 5 * 60_000 },
    );
    if (installed.status !== 0 || !existsSync(binary)) fail(`could not install ${name}@${version}`);
  }
  const reported = spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.trim();
  if (reported !== `v${version}`) fail(`${binary} reports ${reported}, not v${version}`);
  return binary;
}

function unitTests(node, filters) {
  console.log(`\n── unit tests under Node ${version} ──`);
  const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
  const result = spawnSync(node, [vitest, "run", "--project", "unit", ...filters], {
    cwd: root,
    stdio: "inherit",
    timeout: UNIT_TIMEOUT_MS,
  });
  return result.status === 0;
}

/** Polls until the server answers /api/health (or the deadline passes, or it exits). */
async function waitForHealth(url, child, deadline) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Demo credentials into a fresh session, then one Balance Inquiry; the exchange's upstream status. */
async function balanceInquiry(url) {
  const common = { Origin: url, "Content-Type": "application/json" };
  const credentials = await fetch(`${url}/api/session/credentials`, {
    method: "PUT",
    headers: common,
    body: JSON.stringify({ profile: "demo" }),
  });
  if (credentials.status !== 200) return `credentials answered ${credentials.status}`;
  const cookie = credentials.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const inquiry = await fetch(`${url}/api/inquiries/balance`, {
    method: "POST",
    headers: { ...common, Cookie: cookie },
    body: JSON.stringify({ card_number: "6006491000000001", location_id: "store-001" }),
  });
  const body = await inquiry.json();
  return inquiry.status === 200 && body?.response?.status === 200 && body.response.body?.data?.balances?.gift
    ? null
    : `the inquiry answered ${inquiry.status}: ${JSON.stringify(body).slice(0, 300)}`;
}

async function standaloneSmoke(node) {
  console.log(`\n── standalone smoke under Node ${version} ──`);
  const server = path.join(root, ".next", "standalone", "server.js");
  if (!existsSync(server)) fail("no standalone build: run `node scripts/ensure-build.mjs` first");
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "lts-smoke-"));
  const child = spawn(node, [server], {
    cwd: path.dirname(server),
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: "lts-smoke-session-secret-of-at-least-32-chars",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  let log = "";
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  try {
    if (!(await waitForHealth(url, child, Date.now() + SMOKE_TIMEOUT_MS))) {
      return `the server did not answer /api/health:\n${log.slice(-2000)}`;
    }
    console.log(`[lts-node] ${url}/api/health answered under Node ${version}`);
    return await balanceInquiry(url);
  } finally {
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** SIGTERM, then waits for the exit: the server writes its last checkpoint into DATA_DIR while it stops. */
async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const forced = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(forced);
}

const separator = process.argv.indexOf("--");
const filters = separator === -1 ? [] : process.argv.slice(separator + 1);
const node = ltsNode();
const unitOk = unitTests(node, filters);
const smokeProblem = await standaloneSmoke(node);
if (smokeProblem) console.error(`[lts-node] smoke failed: ${smokeProblem}`);
else console.log(`[lts-node] one Balance Inquiry answered 200 under Node ${version}`);
console.log(
  `[lts-node] Node ${version}: unit tests ${unitOk ? "passed" : "FAILED"}, smoke ${smokeProblem ? "FAILED" : "passed"}`,
);
process.exit(unitOk && !smokeProblem ? 0 : 1);
