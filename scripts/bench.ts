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
 * (s') GET /api/me on the AUTH_MODE=none console (to split (b) by step), and (bP) the (b) call on a console using
 * a throwaway PostgreSQL cluster with fsync and synchronous_commit on;
 * and prints throughput, p50, p99 and server CPU per request of each, b/a (anonymous, target ≥ 0.85) and d/a
 * (audited, target ≥ 0.7), the server CPU per request of each step of (d) and of (b), (b) − (a) and (d) − (a);
 * then a soak: (b) on the embedded database and (bP) on PostgreSQL, each under BENCH_SOAK_CONNECTIONS (50) for
 * BENCH_SOAK_SECONDS (60), with p99, errors and the console's RSS at start, peak and end.
 *
 * The targets run in interleaved rounds, so that a busy neighbour on a shared machine weighs on all of them
 * alike; figures are medians over the rounds. BENCH_SECONDS (default 12) is the time per target in all,
 * BENCH_ROUNDS (default 3) the number of rounds, BENCH_CONNECTIONS (default 16) the concurrent
 * connections. The build in NEXT_DIST_DIR (default .next) is used.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { benchBatch } from "./bench-batch";
import { startDurablePostgres, type BenchCluster } from "./bench-postgres";
import { createRequire } from "node:module";
import { createServer } from "node:net";
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
const CARD = { card_number: "6006491000000001", location_id: "bench-store" };
const DEMO_CREDENTIALS = { client_id: "demo-client", client_secret: "demo-secret" };
const PROXY_SECRET = "bench-proxy-shared-secret";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with code ${child.exitCode}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** CPU seconds used so far by a process and its descendants (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return ticks / 100 + children.reduce((sum, child) => sum + cpuSeconds(Number(child)), 0);
  } catch {
    return 0;
  }
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU milliseconds per request. */
  cpuMs: number;
  failed: number;
}

interface Target {
  label: string;
  pid: number | undefined;
  /** A refusal is this target's expected answer: non-2xx answers are not failures. */
  refusal?: boolean;
  options: Omit<AutocannonOptions, "connections" | "duration">;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

async function run(target: Target, duration: number, clients = connections): Promise<Measurement> {
  const cpuBefore = cpuSeconds(target.pid);
  const result = await autocannon({ ...target.options, connections: clients, duration });
  if (target.refusal) result.non2xx = 0;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: ((cpuSeconds(target.pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total),
    failed: result.non2xx + result.errors + result.timeouts,
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

/** `target` under BENCH_SOAK_CONNECTIONS for BENCH_SOAK_SECONDS: throughput, p99, failures, RSS start/peak/end. */
async function soak(target: Target): Promise<string> {
  const start = rssMb(target.pid);
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
    `RSS ${start.toFixed(0)} → peak ${peak.toFixed(0)} → end ${end.toFixed(0)} MB`
  );
}

/** A console session ready for inquiries: credentials set, environment chosen, a token obtained. */
async function sessionCookie(
  consoleUrl: string,
  credentials: object,
  environment: string,
  identity: Record<string, string> = {},
): Promise<string> {
  const headers = { "content-type": "application/json", origin: consoleUrl, ...identity };
  let cookie = "";
  const send = async (method: string, urlPath: string, body: unknown) => {
    const response = await fetch(`${consoleUrl}${urlPath}`, {
      method,
      headers: cookie ? { ...headers, cookie } : headers,
      body: JSON.stringify(body),
    });
    cookie = response.headers.getSetCookie()[0]?.split(";")[0] ?? cookie;
    if (response.status !== 200)
      throw new Error(`${method} ${urlPath}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { response?: { status?: number } };
  };
  await send("PUT", "/api/session/credentials", credentials);
  await send("PUT", "/api/session/environment", { environment });
  await send("POST", "/api/token", {});
  const probe = await send("POST", "/api/inquiries/balance", CARD);
  if (probe.response?.status !== 200)
    throw new Error(`the balance proxy does not work: ${JSON.stringify(probe)}`);
  return cookie;
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

async function main(): Promise<void> {
  const consoleUrl = `http://${HOST}:${await freePort()}`;
  const sandboxUrl = `http://${HOST}:${await freePort()}`;
  const children: ChildProcess[] = [];
  let stopCluster = () => {};
  const stopAll = () => {
    children.forEach((child) => child.exitCode === null && child.kill("SIGTERM"));
    stopCluster();
  };
  process.on("exit", stopAll);

  try {
    // The standalone sandbox (`npm run sandbox`): target (c), and the console's "sandbox" environment for (b).
    const sandboxServer = start(
      [process.execPath, path.join(root, "node_modules/tsx/dist/cli.mjs"), "lib/sandbox/server.ts"],
      {
        SANDBOX_PORT: new URL(sandboxUrl).port,
      },
    );
    children.push(sandboxServer);
    const consolePort = new URL(consoleUrl).port;
    // BENCH_PROFILE_DIR: a V8 CPU profile of the (b) console, written when it stops.
    const profile = process.env.BENCH_PROFILE_DIR
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
    const consoleServer = start([process.execPath, ...profile, path.join(root, "scripts/serve.mjs")], {
      NODE_ENV: "production",
      HOSTNAME: HOST,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: consolePort,
      SESSION_SECRET: "bench-session-secret-with-at-least-32-characters",
      CARD_API_AUTH_URL: sandboxUrl,
      CARD_API_SANDBOX_URL: sandboxUrl,
      // The local user's calls are rate limited and audited too; the limit must not be what is measured.
      RATE_LIMIT_PER_MINUTE: "1000000",
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-local-")),
    });
    children.push(consoleServer);
    // The team console: AUTH_MODE=proxy, the bench playing the trusted proxy on loopback.
    const teamUrl = `http://${HOST}:${await freePort()}`;
    const teamServer = start([process.execPath, path.join(root, "scripts/serve.mjs")], {
      NODE_ENV: "production",
      HOSTNAME: HOST,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: new URL(teamUrl).port,
      PUBLIC_URL: teamUrl,
      SESSION_SECRET: "bench-session-secret-with-at-least-32-characters",
      CARD_API_AUTH_URL: sandboxUrl,
      CARD_API_SANDBOX_URL: sandboxUrl,
      AUTH_MODE: "proxy",
      TRUSTED_PROXIES: "127.0.0.1/32",
      PROXY_SHARED_SECRET: PROXY_SECRET,
      ROLE_GROUPS: "tester:bench-testers,support:bench-support",
      RATE_LIMIT_PER_MINUTE: "1000000",
      LOG_LEVEL: "warn",
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-team-")),
    });
    children.push(teamServer);
    // The same console as (b) on PostgreSQL (a throwaway durable cluster: fsync and synchronous_commit on).
    const cluster: BenchCluster = startDurablePostgres(await freePort());
    stopCluster = () => cluster.stop();
    const pgUrl = `http://${HOST}:${await freePort()}`;
    const pgServer = start([process.execPath, path.join(root, "scripts/serve.mjs")], {
      NODE_ENV: "production",
      HOSTNAME: HOST,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: new URL(pgUrl).port,
      SESSION_SECRET: "bench-session-secret-with-at-least-32-characters",
      CARD_API_AUTH_URL: sandboxUrl,
      CARD_API_SANDBOX_URL: sandboxUrl,
      RATE_LIMIT_PER_MINUTE: "1000000",
      DATABASE_URL: cluster.url,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-pg-console-")),
    });
    children.push(pgServer);
    await waitFor(`${consoleUrl}/api/health`, consoleServer);
    await waitFor(`${teamUrl}/api/health`, teamServer);
    await waitFor(`${pgUrl}/api/ready`, pgServer);
    await waitFor(`${sandboxUrl}/`, sandboxServer);
    const tester = {
      "x-forwarded-user": "bench-tester",
      "x-forwarded-groups": "bench-testers",
      "x-proxy-secret": PROXY_SECRET,
    };
    const supportAgent = {
      ...tester,
      "x-forwarded-user": "bench-support",
      "x-forwarded-groups": "bench-support",
    };
    const teamCookie = await sessionCookie(teamUrl, DEMO_CREDENTIALS, "sandbox", tester);

    const proxyCookie = await sessionCookie(consoleUrl, DEMO_CREDENTIALS, "sandbox");
    const embeddedCookie = await sessionCookie(consoleUrl, { profile: "demo" }, "embedded");
    const pgCookie = await sessionCookie(pgUrl, DEMO_CREDENTIALS, "sandbox");
    const accessToken = await sandboxAccessToken(sandboxUrl);
    const inquiry = (cookie: string, base = consoleUrl) => ({
      url: `${base}/api/inquiries/balance`,
      method: "POST",
      headers: { "content-type": "application/json", origin: base, cookie },
      body: JSON.stringify(CARD),
    });
    const targets: Target[] = [
      {
        label: "(a)  empty route    GET  /api/health",
        pid: consoleServer.pid,
        options: { url: `${consoleUrl}/api/health` },
      },
      {
        label: "(b)  balance proxy  POST /api/inquiries/balance → sandbox",
        pid: consoleServer.pid,
        options: inquiry(proxyCookie),
      },
      {
        label: "(c)  sandbox direct POST /transaction/v1/balance-inquiry",
        pid: sandboxServer.pid,
        options: {
          url: `${sandboxUrl}/transaction/v1/balance-inquiry`,
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
        pid: consoleServer.pid,
        options: inquiry(embeddedCookie),
      },
      {
        label: "(d)  audited proxy  POST /api/inquiries/balance, AUTH_MODE=proxy",
        pid: teamServer.pid,
        options: {
          url: `${teamUrl}/api/inquiries/balance`,
          method: "POST",
          headers: { "content-type": "application/json", origin: teamUrl, cookie: teamCookie, ...tester },
          body: JSON.stringify(CARD),
        },
      },
      {
        label: "(s)  session check  GET  /api/me, AUTH_MODE=proxy",
        pid: teamServer.pid,
        options: { url: `${teamUrl}/api/me`, headers: { cookie: teamCookie, ...tester } },
      },
      {
        label: "(r)  audited 403    POST /api/inquiries/gift-balance (support)",
        pid: teamServer.pid,
        refusal: true,
        options: {
          url: `${teamUrl}/api/inquiries/gift-balance`,
          method: "POST",
          // The tester's cookie with the support agent's identity: the row is checked, then not used.
          headers: {
            "content-type": "application/json",
            origin: teamUrl,
            cookie: teamCookie,
            ...supportAgent,
          },
          body: JSON.stringify(CARD),
        },
      },
      {
        label: "(s') session check  GET  /api/me, AUTH_MODE=none",
        pid: consoleServer.pid,
        options: { url: `${consoleUrl}/api/me`, headers: { cookie: proxyCookie } },
      },
      {
        label: "(bP) balance proxy  as (b), on PostgreSQL (fsync on)",
        pid: pgServer.pid,
        options: inquiry(pgCookie, pgUrl),
      },
    ];

    console.log(
      `autocannon on ${HOST}: ${connections} connections, ${seconds} s per target in ${rounds} interleaved rounds ` +
        "after a warm-up; medians over the rounds\n",
    );
    const byTarget = await measureInRounds(targets);
    for (const [index, target] of targets.entries()) {
      const runs = byTarget[index] ?? [];
      const failed = runs.reduce((sum, runResult) => sum + runResult.failed, 0);
      console.log(
        `${target.label.padEnd(60)} ${median(runs.map((r) => r.rps))
          .toFixed(0)
          .padStart(6)} req/s   ` +
          `p50 ${String(median(runs.map((r) => r.p50))).padStart(3)} ms   p99 ${String(median(runs.map((r) => r.p99))).padStart(4)} ms   ` +
          `server CPU ${median(runs.map((r) => r.cpuMs)).toFixed(3)} ms/req${failed ? `   (${failed} failed)` : ""}`,
      );
    }
    const ratios = (numerator: number, denominator: number) =>
      (byTarget[numerator] ?? []).map(
        (runResult, round) => runResult.rps / (byTarget[denominator]?.[round]?.rps || 1),
      );
    const ba = ratios(1, 0);
    console.log(
      `\nb/a = ${median(ba).toFixed(2)} (target ≥ 0.85; per round ${ba.map((r) => r.toFixed(2)).join(", ")})`,
    );
    const da = ratios(4, 0);
    console.log(
      `d/a = ${median(da).toFixed(2)} (audited, target ≥ 0.7; per round ${da.map((r) => r.toFixed(2)).join(", ")})`,
    );
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
        `the proxy's own CPU above the empty route: (b) − (a) = ${(cpu(1) - cpu(0)).toFixed(3)} ms (target ≤ 1.5), ` +
        `(d) − (a) = ${(cpu(4) - cpu(0)).toFixed(3)} ms (target ≤ 2.5), (bP) − (a) = ${(cpu(8) - cpu(0)).toFixed(3)} ms`,
    );
    console.log(`bP/a = ${median(ratios(8, 0)).toFixed(2)} (PostgreSQL, fsync on)`);
    console.log(
      "(b) reaches the standalone sandbox over HTTP through the pooled keep-alive client, as a real upstream;\n" +
        "(b') runs the embedded sandbox in the console's own thread, whose work (JWT verification above all) then\n" +
        "counts as the console's. Server CPU per request is what the figures would be on an otherwise idle machine.",
    );
    await benchBatch(consoleUrl, proxyCookie, median((byTarget[1] ?? []).map((r) => r.rps)));
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
  } finally {
    stopAll();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
