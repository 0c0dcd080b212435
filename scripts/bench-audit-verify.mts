/**
 * `npm run bench`'s audit verify line (and on its own: `npm run bench:verify`): does a long verify freeze the
 * console? An embedded database (PGlite) of AUDIT_VERIFY_BENCH_ROWS (100,000) audit rows with their signed
 * checkpoints is written first, then a production console serves it; while GET /api/audit/verify runs, one
 * client calls GET /api/health again and again (one call at a time), and its latencies are printed beside the
 * same calls on the idle console. Then the same for `?from=checkpoint` (after the full walk, which it starts from).
 *
 *   node --conditions=react-server --import tsx scripts/bench-audit-verify.mts
 *
 * The build in NEXT_DIST_DIR (default .next) is used.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { freePort } from "./free-port.mjs";
import os from "node:os";
import path from "node:path";

const ROWS = Number(process.env.AUDIT_VERIFY_BENCH_ROWS ?? 100_000);
const HMAC_KEY = "bench-audit-verify-hmac-key-of-32-characters-or-more";
const HOST = "127.0.0.1";
const root = path.resolve(import.meta.dirname, "..");
// The seeding process's audit lines go nowhere; set before the logger is loaded.
process.env.LOG_LEVEL = "warn";

/** `rows` audit rows through the appender (batched as a busy console batches them), with checkpoints. */
async function seed(dataDir: string, rows: number): Promise<number> {
  const { createAuditLog, checkpointFile } = await import("@/lib/server/audit");
  const { createDatabaseRegistry } = await import("@/lib/server/database");
  const databases = createDatabaseRegistry();
  const { db } = await databases.open({ dataDir });
  const file = checkpointFile(dataDir);
  const audit = createAuditLog({ db, hmacKey: HMAC_KEY, checkpoints: { file, everyRows: 1000 } });
  const started = performance.now();
  const callers = 200;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      for (let index = caller; index < rows; index += callers) {
        await audit.append({
          event: "inquiry.balance",
          outcome: "success",
          userId: `bench-${caller % 7}`,
          roles: ["tester"],
          clientAddress: "127.0.0.1",
          environment: "sandbox",
          operation: "balance_inquiry",
          card: "6006491000000001",
          upstreamStatus: 200,
          requestId: `req-${index}`,
        });
      }
    }),
  );
  await audit.close();
  await databases.close();
  return performance.now() - started;
}

function startConsole(dataDir: string, port: number): ChildProcess {
  const child = spawn(process.execPath, [path.join(root, "scripts/serve.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOSTNAME: HOST,
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      SESSION_SECRET: "bench-session-secret-with-at-least-32-characters",
      AUDIT_HMAC_KEY: HMAC_KEY,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return child;
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the console exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * GET /api/health one call after the other until `until` settles; each call's latency in ms. A call that fails
 * (a kept-alive connection the server closed while it was frozen) is counted, and its time kept.
 */
async function probeHealth(base: string, until: Promise<unknown>): Promise<number[] & { failed?: number }> {
  let done = false;
  void until.finally(() => (done = true)).catch(() => {});
  const latencies: number[] & { failed?: number } = [];
  while (!done) {
    const started = performance.now();
    try {
      const response = await fetch(`${base}/api/health`);
      await response.arrayBuffer();
    } catch {
      latencies.failed = (latencies.failed ?? 0) + 1;
    }
    latencies.push(performance.now() - started);
  }
  return latencies;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

const summary = (latencies: number[] & { failed?: number }) =>
  `p50 ${percentile(latencies, 50).toFixed(1)} / p99 ${percentile(latencies, 99).toFixed(1)} / ` +
  `max ${Math.max(0, ...latencies).toFixed(1)} ms (${latencies.length} calls` +
  `${latencies.failed ? `, ${latencies.failed} failed` : ""})`;

/** One verify with health calls beside it: the verify's answer and time, the health latencies. */
async function verifyBeside(base: string, query: string) {
  const started = performance.now();
  const verify = fetch(`${base}/api/audit/verify${query}`, { headers: { origin: base } }).then(
    async (response) => {
      if (response.status !== 200) throw new Error(`verify: ${response.status} ${await response.text()}`);
      return (await response.json()) as { ok: boolean; rows: number; walked_from?: number };
    },
  );
  const latencies = await probeHealth(base, verify);
  const answer = await verify;
  if (!answer.ok) throw new Error(`verify found the chain broken: ${JSON.stringify(answer)}`);
  return { answer, ms: performance.now() - started, latencies };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-verify-"));
  let server: ChildProcess | undefined;
  try {
    const seeded = await seed(dataDir, ROWS);
    console.log(`\naudit verify on PGlite: ${ROWS} rows written in ${(seeded / 1000).toFixed(1)} s`);
    const port = await freePort();
    const base = `http://${HOST}:${port}`;
    server = startConsole(dataDir, port);
    await waitFor(`${base}/api/ready`, server);
    const idle = await probeHealth(base, new Promise((resolve) => setTimeout(resolve, 2000)));
    console.log(`(v)  /api/health, idle console                  ${summary(idle)}`);
    for (const query of ["", "?from=checkpoint"]) {
      const { answer, ms, latencies } = await verifyBeside(base, query);
      const walked = answer.rows - (answer.walked_from ?? 1) + 1;
      console.log(
        `(v)  /api/health during GET /api/audit/verify${query.padEnd(16)} ${summary(latencies)}; ` +
          `verify ${ms.toFixed(0)} ms, ${answer.rows} rows, ${walked} walked`,
      );
    }
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
