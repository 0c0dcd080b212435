/**
 * `npm run bench`: measures, in one run on 127.0.0.1 with autocannon (each target bounded in time),
 *   (a) an empty route handler: GET /api/health of the production build,
 *   (b) the balance proxy: POST /api/inquiries/balance with a valid session, environment "sandbox" pointed
 *       at the standalone sandbox (so through the pooled keep-alive HTTP client, as with a real upstream),
 *   (c) the standalone sandbox called directly: POST /transaction/v1/balance-inquiry,
 *   (b') for information, the same proxy route on the embedded sandbox (in-process, the default),
 * and prints throughput, p50, p99 and server CPU per request of each, and b/a (target ≥ 0.85).
 *
 * The targets run in interleaved rounds, so that a busy neighbour on a shared machine weighs on all of them
 * alike; figures are medians over the rounds. BENCH_SECONDS (default 12) is the time per target in all,
 * BENCH_ROUNDS (default 3) the number of rounds, BENCH_CONNECTIONS (default 16) the concurrent
 * connections. The build in NEXT_DIST_DIR (default .next) is used.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { benchBatch } from "./bench-batch";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
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
const HOST = "127.0.0.1";
const CARD = { card_number: "6006491000000001", location_id: "bench-store" };
const DEMO_CREDENTIALS = { client_id: "demo-client", client_secret: "demo-secret" };

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
  options: Omit<AutocannonOptions, "connections" | "duration">;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

async function run(target: Target, duration: number): Promise<Measurement> {
  const cpuBefore = cpuSeconds(target.pid);
  const result = await autocannon({ ...target.options, connections, duration });
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

/** A console session ready for inquiries: credentials set, environment chosen, a token obtained. */
async function sessionCookie(consoleUrl: string, credentials: object, environment: string): Promise<string> {
  const headers = { "content-type": "application/json", origin: consoleUrl };
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
  const stopAll = () => children.forEach((child) => child.exitCode === null && child.kill("SIGTERM"));
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
    const consoleServer = start([process.execPath, path.join(root, "scripts/serve.mjs")], {
      NODE_ENV: "production",
      HOSTNAME: HOST,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: consolePort,
      SESSION_SECRET: "bench-session-secret-with-at-least-32-characters",
      CARD_API_AUTH_URL: sandboxUrl,
      CARD_API_SANDBOX_URL: sandboxUrl,
    });
    children.push(consoleServer);
    await waitFor(`${consoleUrl}/api/health`, consoleServer);
    await waitFor(`${sandboxUrl}/`, sandboxServer);

    const proxyCookie = await sessionCookie(consoleUrl, DEMO_CREDENTIALS, "sandbox");
    const embeddedCookie = await sessionCookie(consoleUrl, { profile: "demo" }, "embedded");
    const accessToken = await sandboxAccessToken(sandboxUrl);
    const inquiry = (cookie: string) => ({
      url: `${consoleUrl}/api/inquiries/balance`,
      method: "POST",
      headers: { "content-type": "application/json", origin: consoleUrl, cookie },
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
    console.log(`b'/a = ${median(ratios(3, 0)).toFixed(2)}   b/c = ${median(ratios(1, 2)).toFixed(2)}`);
    console.log(
      "(b) reaches the standalone sandbox over HTTP through the pooled keep-alive client, as a real upstream;\n" +
        "(b') runs the embedded sandbox in the console's own thread, whose work (JWT verification above all) then\n" +
        "counts as the console's. Server CPU per request is what the figures would be on an otherwise idle machine.",
    );
    await benchBatch(consoleUrl, proxyCookie, median((byTarget[1] ?? []).map((r) => r.rps)));
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
