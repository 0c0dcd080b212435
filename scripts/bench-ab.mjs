// @ts-check
/**
 * `npm run bench:ab -- REV [REV_B]`: the server CPU per request of two builds of the console side by side, for
 * (a) GET /api/health and (b) the balance proxy to the standalone sandbox. This machine's speed drifts by tens of
 * percent within an hour, so figures taken at different times cannot be compared; here both consoles run at
 * once and are measured in interleaved rounds (the order swapped every round), and the answer is the median of
 * the per-round differences. REV is built in a temporary git worktree; REV_B likewise, or this checkout when
 * absent. Each console as `npm start` runs it: AUTH_MODE=none, PGlite, its own temporary DATA_DIR.
 * AB_REQUESTS (3000) per target and round, AB_ROUNDS (6), AB_CONNECTIONS (16).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_CARD, cpuSeconds, sessionCookie, waitFor } from "./bench-servers.mjs";
import { freePort } from "./free-port.mjs";
import { serverNodeFlags } from "./server-node-options.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const autocannon = createRequire(import.meta.url)("autocannon");
const HOST = "127.0.0.1";
const REQUESTS = Number(process.env.AB_REQUESTS ?? 3000);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 6);
const CONNECTIONS = Number(process.env.AB_CONNECTIONS ?? 16);
const DEMO_CREDENTIALS = { client_id: "demo-client", client_secret: "demo-secret" };
/** @type {import("node:child_process").ChildProcess[]} */
const children = [];
/** @type {(() => void)[]} */
const cleanups = [];
/** @typedef {{ pid: number | undefined, targets: Record<"a" | "b", object> }} Server */

/** @param {string[]} args @param {string} cwd */
const git = (args, cwd = root) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/** A built checkout of `rev` in a temporary worktree, sharing this checkout's node_modules by hard links. @param {string} rev */
function checkout(rev) {
  const folder = mkdtempSync(path.join(os.tmpdir(), "bench-ab-"));
  git(["worktree", "add", "--detach", "--quiet", folder, git(["rev-parse", "--verify", `${rev}^{commit}`])]);
  cleanups.push(() => git(["worktree", "remove", "--force", folder]));
  try {
    execFileSync("cp", ["-al", path.join(root, "node_modules"), folder]);
  } catch {
    execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: folder, stdio: "inherit" });
  }
  return folder;
}

/** @param {string} folder */
function build(folder) {
  execFileSync(process.execPath, ["scripts/ensure-build.mjs"], {
    cwd: folder,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** @param {string} cwd @param {string[]} command @param {Record<string, string>} env */
function launch(cwd, command, env) {
  const [file = process.execPath, ...args] = command;
  const child = spawn(file, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

/**
 * One console of `folder` against the standalone sandbox, answering, with its two targets.
 * @param {string} folder @param {string} sandboxUrl
 */
async function startConsole(folder, sandboxUrl) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-ab-data-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const child = launch(folder, [process.execPath, ...serverNodeFlags(), "scripts/serve.mjs"], {
    NODE_ENV: "production",
    HOSTNAME: HOST,
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: "1",
    SESSION_SECRET: "bench-ab-session-secret-with-at-least-32-characters",
    CARD_API_AUTH_URL: sandboxUrl,
    CARD_API_SANDBOX_URL: sandboxUrl,
    RATE_LIMIT_PER_MINUTE: "1000000",
    DATA_DIR: dataDir,
  });
  await waitFor(`${url}/api/health`, child, 120);
  const cookie = await sessionCookie(url, DEMO_CREDENTIALS, "sandbox");
  const headers = { "content-type": "application/json", origin: url, cookie };
  const targets = {
    a: { url: `${url}/api/health` },
    b: { url: `${url}/api/inquiries/balance`, method: "POST", headers, body: JSON.stringify(BENCH_CARD) },
  };
  return { pid: child.pid, targets };
}

/**
 * Server CPU ms per request of one target, over `amount` requests.
 * @param {Server} server @param {"a" | "b"} target @param {number} amount
 */
async function measure(server, target, amount) {
  const before = cpuSeconds(server.pid);
  const result = await autocannon({ ...server.targets[target], connections: CONNECTIONS, amount });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return ((cpuSeconds(server.pid) - before) * 1000) / result.requests.total;
}

/** @param {number[]} values */
const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? NaN;

/** Rounds of (a) and (b) on both consoles, the first console swapped every round. @param {Server[]} servers */
async function rounds(servers) {
  /** @type {{ a: number, b: number }[][]} */
  const results = servers.map(() => []);
  for (const server of servers)
    for (const target of /** @type {const} */ (["a", "b"])) await measure(server, target, 500);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) {
      const server = servers[index];
      if (!server) continue;
      results[index]?.push({
        a: await measure(server, "a", REQUESTS),
        b: await measure(server, "b", REQUESTS),
      });
    }
    const line = results
      .map((list) => list.at(-1))
      .map((r, i) => `${"AB"[i]} a ${r?.a.toFixed(3)} b ${r?.b.toFixed(3)}`);
    console.log(`round ${round + 1}  load ${os.loadavg()[0]?.toFixed(2)}  ${line.join("  |  ")}`);
  }
  return results;
}

/** @param {string[]} labels @param {{ a: number, b: number }[][]} results */
function report(labels, results) {
  const [first = [], second = []] = results;
  const figures = (/** @type {{ a: number, b: number }[]} */ list) => ({
    a: median(list.map((r) => r.a)),
    b: median(list.map((r) => r.b)),
    d: median(list.map((r) => r.b - r.a)),
  });
  for (const [index, list] of results.entries()) {
    const { a, b, d } = figures(list);
    console.log(
      `${"AB"[index]} ${labels[index]}: (a) ${a.toFixed(3)}  (b) ${b.toFixed(3)}  (b) − (a) ${d.toFixed(3)} ms CPU/request`,
    );
  }
  const paired = (/** @type {(r: { a: number, b: number }) => number} */ pick) =>
    median(first.map((r, i) => pick(second[i] ?? r) - pick(r)));
  console.log(
    `B − A, median of the rounds' differences: (a) ${paired((r) => r.a).toFixed(3)}  (b) ${paired((r) => r.b).toFixed(3)}  ` +
      `(b) − (a) ${paired((r) => r.b - r.a).toFixed(3)} ms`,
  );
}

async function main() {
  const [revA, revB] = process.argv.slice(2).filter((arg) => arg !== "--");
  if (!revA) throw new Error("usage: npm run bench:ab -- REV [REV_B]");
  const folders = [checkout(revA), revB ? checkout(revB) : root];
  folders.forEach(build);
  const labels = [revA, revB ?? "this checkout"];
  const sandboxPort = await freePort();
  const sandboxUrl = `http://${HOST}:${sandboxPort}`;
  const sandbox = launch(root, [process.execPath, "node_modules/tsx/dist/cli.mjs", "lib/sandbox/server.ts"], {
    SANDBOX_PORT: String(sandboxPort),
  });
  await waitFor(`${sandboxUrl}/`, sandbox, 120);
  const servers = [
    await startConsole(folders[0] ?? root, sandboxUrl),
    await startConsole(folders[1] ?? root, sandboxUrl),
  ];
  console.log(
    `${CONNECTIONS} connections, ${REQUESTS} requests per target and round, ${ROUNDS} rounds; Node ${process.version}`,
  );
  report(labels, await rounds(servers));
}

function stop() {
  children.forEach((child) => child.exitCode === null && child.kill("SIGTERM"));
  children.length = 0;
  for (const cleanup of cleanups.splice(0)) {
    try {
      cleanup();
    } catch {
      // A worktree already gone.
    }
  }
}
process.on("exit", stop);
main()
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(stop);
