/**
 * `npm run bench`: measures, in one run on 127.0.0.1 with autocannon (each target bounded in time),
 *   (a) an empty route handler: GET /api/health of the production build,
 *   (b) the balance proxy: POST /api/inquiries/balance with a valid session, environment "sandbox" pointed
 *       at the standalone sandbox (so through the pooled keep-alive HTTP client, as with a real upstream),
 *   (c) the standalone sandbox called directly: POST /transaction/v1/balance-inquiry,
 *   (b') for information, the same proxy route on the embedded sandbox (in-process, the default),
 *   (d) the signed-in, audited proxy: the same call on a second console in AUTH_MODE=proxy (identity headers
 *       from a trusted peer), with its session row check, rate limit and audit insert,
 * and, to split (d)'s cost by step, on that same console: (s) GET /api/me (identity + session row check only) and
 * (r) a refused call (403: identity + session check + one audit insert, nothing upstream);
 * (s') GET /api/me on the AUTH_MODE=none console (to split (b) by step), (bP) the (b) call on a console using
 * a throwaway PostgreSQL cluster with fsync and synchronous_commit on, and (p) the floor: a bare Node proxy
 * (scripts/bench-bare-proxy.mjs) making the (b) call to the same standalone sandbox;
 * and prints the idle RSS of the default console after start, then throughput, p50, p99, server CPU per request
 * and the load average at the start and end of each target (warning when above 1: the figures are then noisy),
 * b/a (anonymous, target ≥ 0.85) and d/a
 * (audited, target ≥ 0.7), the server CPU per request of each step of (d) and of (b), (b) − (a) and (d) − (a);
 * the audit rows per insert statement of every audited target (group commit; from each console's
 * console_audit_batch_rows histogram, read through GET /api/metrics before and after each run);
 * then a soak: (b) on the embedded database and (bP) on PostgreSQL, each under BENCH_SOAK_CONNECTIONS (50) for
 * BENCH_SOAK_SECONDS (60), with p99, errors and the console's RSS at start, peak and end;
 * then (v): GET /api/health latency while GET /api/audit/verify walks AUDIT_VERIFY_BENCH_ROWS (100,000) rows on
 * PGlite (scripts/bench-audit-verify.mts; BENCH_VERIFY=0 skips it).
 *
 * The targets run in interleaved rounds, so that a busy neighbour on a shared machine weighs on all of them
 * alike; figures are medians over the rounds. BENCH_SECONDS (default 12) is the time per target in all,
 * BENCH_ROUNDS (default 3) the number of rounds, BENCH_CONNECTIONS (default 16) the concurrent
 * connections, BENCH_NODE the Node binary of the consoles and (p) (default: the one running the bench). The
 * build in NEXT_DIST_DIR (default .next) is used.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { benchBatch } from "./bench-batch";
import { BENCH_CARD, cpuSeconds, sessionCookie, waitFor } from "./bench-servers.mjs";
import { startDurablePostgres, type BenchCluster } from "./bench-postgres";
import { createRequire } from "node:module";
import { freePort } from "./free-port.mjs";
import { serverNodeFlags } from "./server-node-options.mjs";
import os from "node:os";
import path from "node:path";

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface AutocannonOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}
type Autocannon = (options: AutocannonOptions) => Promise<AutocannonResult>;

const require = createRequire(import.meta.url);
const autocannon = require("autocannon") as Autocannon;

const root = path.resolve(import.meta.dirname, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 12);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** The soak: BENCH_SOAK_CONNECTIONS for BENCH_SOAK_SECONDS on each database (0 skips it). */
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const soakConnections = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 50);
const HOST = "127.0.0.1";
const CARD = BENCH_CARD;
const DEMO_CREDENTIALS = { client_id: "demo-client", client_secret: "demo-secret" };
const PROXY_SECRET = "bench-proxy-shared-secret";
const METRICS_TOKEN = "bench-metrics-token-0123456789";
const SESSION_SECRET = "bench-session-secret-with-at-least-32-characters";

function start(command: string[], env: Record<string, string>): ChildProcess {
  const [file = process.execPath, ...args] = command;
  const child = spawn(file, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  return child;
}

/** Audit insert statements and the rows they wrote. */
interface AuditBatches {
  statements: number;
  rows: number;
}

interface Measurement {
  /** The machine's 1-minute load average when the run started and when it ended. */
  load: [number, number];
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU milliseconds per request. */
  cpuMs: number;
  failed: number;
  /** What the run wrote to the audit log, when the target's console is audited. */
  audit?: AuditBatches;
}

interface Target {
  label: string;
  pid: number | undefined;
  /** A refusal is this target's expected answer: non-2xx answers are not failures. */
  refusal?: boolean;
  options: Omit<AutocannonOptions, "connections" | "duration">;
  /** The console's base URL, to read its audit batch counters (GET /api/metrics with the bench's token). */
  metricsOf?: string;
}

/** The console's audit batches so far: console_audit_batch_rows' _count (statements) and _sum (rows). */
async function auditBatches(consoleUrl: string): Promise<AuditBatches> {
  const response = await fetch(`${consoleUrl}/api/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
  return {
    statements: read("console_audit_batch_rows_count"),
    rows: read("console_audit_batch_rows_sum"),
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

async function run(target: Target, duration: number, clients = connections): Promise<Measurement> {
  const batchesBefore = target.metricsOf ? await auditBatches(target.metricsOf) : undefined;
  const loadBefore = os.loadavg()[0] ?? 0;
  const cpuBefore = cpuSeconds(target.pid);
  const result = await autocannon({ ...target.options, connections: clients, duration });
  const load: [number, number] = [loadBefore, os.loadavg()[0] ?? 0];
  const cpuMs = ((cpuSeconds(target.pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  if (target.refusal) result.non2xx = 0;
  const batchesAfter = target.metricsOf ? await auditBatches(target.metricsOf) : undefined;
  return {
    load,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs,
    failed: result.non2xx + result.errors + result.timeouts,
    audit: batchesBefore &&
      batchesAfter && {
        statements: batchesAfter.statements - batchesBefore.statements,
        rows: batchesAfter.rows - batchesBefore.rows,
      },
  };
}

/** Every target in turn, `rounds` times, after a warm-up; the rounds' results per target. */
async function measureInRounds(targets: Target[]): Promise<Measurement[][]> {
  for (const target of targets) await run(target, 2);
  const byTarget: Measurement[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries())
      byTarget[index]?.push(await run(target, seconds / rounds));
  }
  return byTarget;
}

/** Resident memory of a process in MB (Linux /proc; 0 elsewhere). */
function rssMb(pid: number | undefined): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)/m);
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Above this 1-minute load average, other work shares the cores with the bench's servers. */
const BUSY_LOAD = 1;

/** "load 0.42 → 0.61", with a warning when either is above BUSY_LOAD. */
function loadText([before, after]: [number, number]): string {
  const busy = Math.max(before, after) > BUSY_LOAD ? "  (warning: load above 1, figures noisy)" : "";
  return `load ${before.toFixed(2)} → ${after.toFixed(2)}${busy}`;
}

/** `target` under BENCH_SOAK_CONNECTIONS for BENCH_SOAK_SECONDS: throughput, p99, failures, RSS start/peak/end. */
async function soak(target: Target): Promise<string> {
  const start = rssMb(target.pid);
  const loadBefore = os.loadavg()[0] ?? 0;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(target.pid))), 1000);
  const cpuBefore = cpuSeconds(target.pid);
  const result = await autocannon({ ...target.options, connections: soakConnections, duration: soakSeconds });
  clearInterval(sampler);
  const end = rssMb(target.pid);
  const cpuMs = ((cpuSeconds(target.pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  return (
    `${target.label.padEnd(60)} ${result.requests.average.toFixed(0).padStart(6)} req/s   p99 ${result.latency.p99} ms   ` +
    `CPU ${cpuMs.toFixed(3)} ms/req   errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}   ` +
    `RSS ${start.toFixed(0)} → peak ${peak.toFixed(0)} → end ${end.toFixed(0)} MB   ` +
    loadText([loadBefore, os.loadavg()[0] ?? 0])
  );
}

async function sandboxAccessToken(sandboxUrl: string): Promise<string> {
  const response = await fetch(`${sandboxUrl}/reporting/v1/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...DEMO_CREDENTIALS, grant_type: "client_credentials" }),
  });
  return ((await response.json()) as { data: { attributes: { access_token: string } } }).data.attributes
    .access_token;
}

/** The environment every console of the bench shares, with its port and the sandbox as its upstream. */
function consoleEnv(port: string, sandboxUrl: string, extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: "production",
    HOSTNAME: HOST,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: port,
    SESSION_SECRET,
    CARD_API_AUTH_URL: sandboxUrl,
    CARD_API_SANDBOX_URL: sandboxUrl,
    // The local user's calls are rate limited and audited too; the limit must not be what is measured.
    RATE_LIMIT_PER_MINUTE: "1000000",
    METRICS_TOKEN,
    ...extra,
  };
}

interface Servers {
  sandbox: { url: string; child: ChildProcess };
  /** AUTH_MODE=none on PGlite: (a), (b), (b'), (s'). */
  local: { url: string; child: ChildProcess };
  /** AUTH_MODE=proxy on PGlite: (d), (s), (r). */
  team: { url: string; child: ChildProcess };
  /** AUTH_MODE=none on the durable PostgreSQL: (bP). */
  postgres: { url: string; child: ChildProcess };
  /** The bare Node proxy to the standalone sandbox: (p). */
  bare: { url: string; child: ChildProcess };
}

/**
 * The Node that runs the consoles and the bare proxy: the one running the bench (as `npm start` would), or
 * BENCH_NODE (for example the LTS binary `npm run test:lts` installs) to measure the runtime the image ships.
 */
const serverNode = process.env.BENCH_NODE || process.execPath;

/** Each console as `npm start` runs it (scripts/start.mjs): the same Node options. */
const serveScript = () => [serverNode, ...serverNodeFlags(), path.join(root, "scripts/serve.mjs")];
const tempDir = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

/** The command and environment of (p), the bare Node proxy, on `port` in front of the standalone sandbox. */
function bareProxy(port: string, sandboxUrl: string): [string[], Record<string, string>] {
  return [
    [serverNode, path.join(root, "scripts/bench-bare-proxy.mjs")],
    {
      PORT: port,
      SANDBOX_URL: sandboxUrl,
      CLIENT_ID: DEMO_CREDENTIALS.client_id,
      CLIENT_SECRET: DEMO_CREDENTIALS.client_secret,
    },
  ];
}

/** The standalone sandbox, the three consoles and the bare proxy, answering; every child is pushed to `children` at once. */
async function startServers(children: ChildProcess[], cluster: BenchCluster): Promise<Servers> {
  const url = async () => `http://${HOST}:${await freePort()}`;
  const [sandboxUrl, localUrl, teamUrl, pgUrl, bareUrl] = [
    await url(),
    await url(),
    await url(),
    await url(),
    await url(),
  ];
  const port = (base: string) => new URL(base).port;
  const launch = (command: string[], env: Record<string, string>) => {
    const child = start(command, env);
    children.push(child);
    return child;
  };
  // The standalone sandbox (`npm run sandbox`): target (c), and the consoles' "sandbox" environment.
  const tsx = [process.execPath, path.join(root, "node_modules/tsx/dist/cli.mjs")];
  const sandbox = launch([...tsx, "lib/sandbox/server.ts"], { SANDBOX_PORT: port(sandboxUrl) });
  // BENCH_PROFILE_DIR: a V8 CPU profile of the (b) console, written when it stops.
  const profile = process.env.BENCH_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const [node, ...serve] = serveScript() as [string, ...string[]];
  const local = launch(
    [node, ...profile, ...serve],
    consoleEnv(port(localUrl), sandboxUrl, { DATA_DIR: tempDir("bench-local-") }),
  );
  // The team console: AUTH_MODE=proxy, the bench playing the trusted proxy on loopback.
  const team = launch(
    serveScript(),
    consoleEnv(port(teamUrl), sandboxUrl, {
      PUBLIC_URL: teamUrl,
      AUTH_MODE: "proxy",
      TRUSTED_PROXIES: "127.0.0.1/32",
      PROXY_SHARED_SECRET: PROXY_SECRET,
      ROLE_GROUPS: "tester:bench-testers,support:bench-support",
      LOG_LEVEL: "warn",
      DATA_DIR: tempDir("bench-team-"),
    }),
  );
  // The same console as (b) on PostgreSQL (a throwaway durable cluster: fsync and synchronous_commit on).
  const postgres = launch(
    serveScript(),
    consoleEnv(port(pgUrl), sandboxUrl, {
      DATABASE_URL: cluster.url,
      DATA_DIR: tempDir("bench-pg-console-"),
    }),
  );
  const bare = launch(...bareProxy(port(bareUrl), sandboxUrl));
  await waitFor(`${localUrl}/api/health`, local);
  await waitFor(`${teamUrl}/api/health`, team);
  await waitFor(`${pgUrl}/api/ready`, postgres);
  await waitFor(`${sandboxUrl}/`, sandbox);
  await waitFor(bareUrl, bare);
  return {
    sandbox: { url: sandboxUrl, child: sandbox },
    local: { url: localUrl, child: local },
    team: { url: teamUrl, child: team },
    postgres: { url: pgUrl, child: postgres },
    bare: { url: bareUrl, child: bare },
  };
}

const TESTER = {
  "x-forwarded-user": "bench-tester",
  "x-forwarded-groups": "bench-testers",
  "x-proxy-secret": PROXY_SECRET,
};
const SUPPORT_AGENT = {
  ...TESTER,
  "x-forwarded-user": "bench-support",
  "x-forwarded-groups": "bench-support",
};

interface Cookies {
  team: string;
  proxy: string;
  embedded: string;
  postgres: string;
}

async function signIn(servers: Servers): Promise<Cookies> {
  return {
    team: await sessionCookie(servers.team.url, DEMO_CREDENTIALS, "sandbox", TESTER),
    proxy: await sessionCookie(servers.local.url, DEMO_CREDENTIALS, "sandbox"),
    embedded: await sessionCookie(servers.local.url, { profile: "demo" }, "embedded"),
    postgres: await sessionCookie(servers.postgres.url, DEMO_CREDENTIALS, "sandbox"),
  };
}

const inquiry = (base: string, cookie: string, headers: Record<string, string> = {}) => ({
  url: `${base}/api/inquiries/balance`,
  method: "POST",
  headers: { "content-type": "application/json", origin: base, cookie, ...headers },
  body: JSON.stringify(CARD),
});

/** (a), (b), (c), (b') in this order: the indexes the ratios below use. */
function anonymousTargets(servers: Servers, cookies: Cookies, accessToken: string): Target[] {
  const { local, sandbox } = servers;
  return [
    {
      label: "(a)  empty route    GET  /api/health",
      pid: local.child.pid,
      options: { url: `${local.url}/api/health` },
    },
    {
      label: "(b)  balance proxy  POST /api/inquiries/balance → sandbox",
      pid: local.child.pid,
      options: inquiry(local.url, cookies.proxy),
      metricsOf: local.url,
    },
    {
      label: "(c)  sandbox direct POST /transaction/v1/balance-inquiry",
      pid: sandbox.child.pid,
      options: {
        url: `${sandbox.url}/transaction/v1/balance-inquiry`,
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
        body: JSON.stringify({
          data: {
            entry_mode: "keyed",
            card_number: CARD.card_number,
            pin_mode: "none",
            originator: { location_id: CARD.location_id },
          },
        }),
      },
    },
    {
      label: "(b') embedded       POST /api/inquiries/balance (in-process)",
      pid: local.child.pid,
      options: inquiry(local.url, cookies.embedded),
      metricsOf: local.url,
    },
  ];
}

/** (d), (s), (r), (s'), (bP), (p) in this order (indexes 4 to 9). */
function auditedTargets(servers: Servers, cookies: Cookies): Target[] {
  const { team, local, postgres, bare } = servers;
  return [
    {
      label: "(d)  audited proxy  POST /api/inquiries/balance, AUTH_MODE=proxy",
      pid: team.child.pid,
      options: inquiry(team.url, cookies.team, TESTER),
      metricsOf: team.url,
    },
    {
      label: "(s)  session check  GET  /api/me, AUTH_MODE=proxy",
      pid: team.child.pid,
      options: { url: `${team.url}/api/me`, headers: { cookie: cookies.team, ...TESTER } },
    },
    {
      label: "(r)  audited 403    POST /api/inquiries/gift-balance (support)",
      pid: team.child.pid,
      refusal: true,
      // The tester's cookie with the support agent's identity: the row is checked, then not used.
      options: {
        ...inquiry(team.url, cookies.team, SUPPORT_AGENT),
        url: `${team.url}/api/inquiries/gift-balance`,
      },
      metricsOf: team.url,
    },
    {
      label: "(s') session check  GET  /api/me, AUTH_MODE=none",
      pid: local.child.pid,
      options: { url: `${local.url}/api/me`, headers: { cookie: cookies.proxy } },
    },
    {
      label: "(bP) balance proxy  as (b), on PostgreSQL (fsync on)",
      pid: postgres.child.pid,
      options: inquiry(postgres.url, cookies.postgres),
      metricsOf: postgres.url,
    },
    {
      label: "(p)  bare Node proxy POST → sandbox (the floor: undici Pool)",
      pid: bare.child.pid,
      options: { ...inquiry(bare.url, ""), headers: { "content-type": "application/json" } },
    },
  ];
}

/** Each round's server CPU per request: the medians hide how far apart the rounds are (a busy or GC-heavy one). */
function printRounds(targets: Target[], byTarget: Measurement[][]): void {
  console.log("\nserver CPU per request in each round, in order (ms):");
  for (const [index, target] of targets.entries()) {
    const rounds = (byTarget[index] ?? []).map((r) => r.cpuMs.toFixed(3)).join("  ");
    console.log(`  ${target.label.slice(0, 4)} ${rounds}`);
  }
}

/** One line per target: medians over the rounds, and its audit rows per statement when audited. */
function printTargets(targets: Target[], byTarget: Measurement[][]): void {
  for (const [index, target] of targets.entries()) {
    const runs = byTarget[index] ?? [];
    const failed = runs.reduce((sum, runResult) => sum + runResult.failed, 0);
    const of = (pick: (r: Measurement) => number) => median(runs.map(pick));
    console.log(
      `${target.label.padEnd(60)} ${of((r) => r.rps)
        .toFixed(0)
        .padStart(6)} req/s   ` +
        `p50 ${String(of((r) => r.p50)).padStart(3)} ms   p99 ${String(of((r) => r.p99)).padStart(4)} ms   ` +
        `server CPU ${of((r) => r.cpuMs).toFixed(3)} ms/req   ` +
        // From the start of the target's first round to the end of its last.
        loadText([runs[0]?.load[0] ?? 0, runs.at(-1)?.load[1] ?? 0]) +
        (failed ? `   (${failed} failed)` : ""),
    );
  }
  printRounds(targets, byTarget);
  console.log("\naudit rows per insert statement (group commit), over every round of the target:");
  for (const [index, target] of targets.entries()) {
    const audited = (byTarget[index] ?? []).flatMap((r) => (r.audit ? [r.audit] : []));
    if (audited.length === 0) continue;
    const rows = audited.reduce((sum, a) => sum + a.rows, 0);
    const statements = audited.reduce((sum, a) => sum + a.statements, 0);
    console.log(
      `  ${target.label.slice(0, 4)} ${(rows / Math.max(1, statements)).toFixed(2).padStart(6)} rows/statement ` +
        `(${rows} rows in ${statements} statements)`,
    );
  }
}

/** The throughput ratios and the server CPU per request of (d) and (b) split by step. */
function printRatiosAndSteps(byTarget: Measurement[][]): void {
  const ratios = (numerator: number, denominator: number) =>
    (byTarget[numerator] ?? []).map(
      (runResult, round) => runResult.rps / (byTarget[denominator]?.[round]?.rps || 1),
    );
  const perRound = (values: number[]) => values.map((r) => r.toFixed(2)).join(", ");
  const ba = ratios(1, 0);
  console.log(`\nb/a = ${median(ba).toFixed(2)} (target ≥ 0.85; per round ${perRound(ba)})`);
  const da = ratios(4, 0);
  console.log(`d/a = ${median(da).toFixed(2)} (audited, target ≥ 0.7; per round ${perRound(da)})`);
  console.log(`b'/a = ${median(ratios(3, 0)).toFixed(2)}   b/c = ${median(ratios(1, 2)).toFixed(2)}`);
  const cpu = (index: number) => median((byTarget[index] ?? []).map((r) => r.cpuMs));
  console.log(
    "\nserver CPU per request of (d), by step (differences of the targets' medians):\n" +
      `  route, guards, JSON, log line        ${cpu(0).toFixed(3)} ms   (a)\n` +
      `  identity + session row check         ${(cpu(5) - cpu(0)).toFixed(3)} ms   (s − a)\n` +
      `  audit insert (a refusal row)         ${(cpu(6) - cpu(5)).toFixed(3)} ms   (r − s)\n` +
      `  rate limit + upstream call + record  ${(cpu(4) - cpu(6)).toFixed(3)} ms   (d − r)\n` +
      `  total                                ${cpu(4).toFixed(3)} ms   (d)`,
  );
  console.log(
    "\nserver CPU per request of (b), by step:\n" +
      `  route, guards, JSON, log line        ${cpu(0).toFixed(3)} ms   (a)\n` +
      `  session row check                    ${(cpu(7) - cpu(0)).toFixed(3)} ms   (s' − a)\n` +
      `  rate limit + upstream call + audit   ${(cpu(1) - cpu(7)).toFixed(3)} ms   (b − s')\n` +
      `  total                                ${cpu(1).toFixed(3)} ms   (b)\n` +
      `the proxy's own CPU above the empty route: (b) − (a) = ${(cpu(1) - cpu(0)).toFixed(3)} ms (target ≤ 1.0, goal 0.5), ` +
      `(d) − (a) = ${(cpu(4) - cpu(0)).toFixed(3)} ms (target ≤ 1.5, goal 1.0), (bP) − (a) = ${(cpu(8) - cpu(0)).toFixed(3)} ms`,
  );
  console.log(`bP/a = ${median(ratios(8, 0)).toFixed(2)} (PostgreSQL, fsync on)`);
  console.log(
    `the floor: (p) ${cpu(9).toFixed(3)} ms/req; the console above it: (b) − (p) = ${(cpu(1) - cpu(9)).toFixed(3)} ms, ` +
      `(d) − (p) = ${(cpu(4) - cpu(9)).toFixed(3)} ms`,
  );
  console.log(
    "(b) reaches the standalone sandbox over HTTP through the pooled keep-alive client, as a real upstream;\n" +
      "(b') runs the embedded sandbox in the console's own thread, whose work (JWT verification above all) then\n" +
      "counts as the console's. Server CPU per request is what the figures would be on an otherwise idle machine.",
  );
}

/** (v): the verify bench in its own process (it loads the console's modules under the react-server condition). */
async function benchVerify(): Promise<void> {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts/bench-audit-verify.mts")],
    { cwd: root, env: process.env, stdio: ["ignore", "inherit", "inherit"] },
  );
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) {
    console.log(`(v)  the verify bench exited with code ${code}`);
    process.exitCode = 1;
  }
}

function nodeVersion(binary: string): string {
  return spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.trim().replace(/^v/, "");
}

/** The rounds, their figures, the batch, the soak; then (v) once the other consoles are stopped. */
async function measure(servers: Servers, targets: Target[], cookies: Cookies): Promise<void> {
  console.log(
    `autocannon on ${HOST}: ${connections} connections, ${seconds} s per target in ${rounds} interleaved rounds ` +
      "after a warm-up; medians over the rounds",
  );
  console.log(
    `consoles and (p) on Node ${nodeVersion(serverNode)} (${serverNode}; BENCH_NODE picks another)\n`,
  );
  const byTarget = await measureInRounds(targets);
  printTargets(targets, byTarget);
  printRatiosAndSteps(byTarget);
  await benchBatch(servers.local.url, cookies.proxy, median((byTarget[1] ?? []).map((r) => r.rps)));
  if (soakSeconds > 0) {
    console.log(
      `\nsoak: ${soakConnections} connections for ${soakSeconds} s each, one database after the other`,
    );
    for (const index of [1, 8]) console.log(await soak(targets[index]!));
  }
  if (byTarget.flat().some((runResult) => runResult.failed > 0)) {
    console.log("warning: some requests failed; the figures above are not comparable");
    process.exitCode = 1;
  }
}

async function main(): Promise<void> {
  const children: ChildProcess[] = [];
  let stopCluster = () => {};
  const stopAll = () => {
    children.forEach((child) => child.exitCode === null && child.kill("SIGTERM"));
    stopCluster();
  };
  process.on("exit", stopAll);
  try {
    const cluster: BenchCluster = startDurablePostgres(await freePort());
    stopCluster = () => cluster.stop();
    const servers = await startServers(children, cluster);
    console.log(
      `idle RSS of the default console after start: ${rssMb(servers.local.child.pid).toFixed(0)} MB`,
    );
    const cookies = await signIn(servers);
    const accessToken = await sandboxAccessToken(servers.sandbox.url);
    const targets = [...anonymousTargets(servers, cookies, accessToken), ...auditedTargets(servers, cookies)];
    await measure(servers, targets, cookies);
  } finally {
    stopAll();
  }
  if (process.env.BENCH_VERIFY !== "0") await benchVerify();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
