/**
 * `npm run bench:audit`: audit append throughput (rows/s) on PGlite and on PostgreSQL, with one writer and with
 * two concurrent writers. PGlite is single-process, so its two writers are two concurrent loops in one process;
 * on PostgreSQL they are two separate processes (as two console instances). A throwaway PostgreSQL cluster is
 * started on 127.0.0.1 (Debian's `postgresql` binaries) and removed after. A last case has 16 concurrent callers
 * share one audit log (concurrent requests in one console: their appends batch). AUDIT_BENCH_ROWS (default
 * 2000) rows per writer. Ends by verifying both chains.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createAuditLog, type AuditLog } from "@/lib/server/audit";
import { createDatabaseRegistry, type StorageSettings } from "@/lib/server/database";

// One registry for the script: a database opened twice is the same handle.
const databases = createDatabaseRegistry();
import { startPostgres } from "../test/support/postgres";

const ROWS = Number(process.env.AUDIT_BENCH_ROWS ?? 2000);
const CALLERS = 16;
const HMAC_KEY = "bench-audit-hmac-key";
const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), "..");

/** `rows` appends by `callers` concurrent callers sharing one audit log (as concurrent requests in one console). */
async function appendRows(
  settings: StorageSettings,
  writer: string,
  rows: number,
  callers = 1,
): Promise<void> {
  const { db } = await databases.open(settings);
  const audit = createAuditLog({ db, hmacKey: HMAC_KEY });
  await Promise.all(
    Array.from({ length: callers }, (_, caller) =>
      callerLoop(audit, writer, caller, Math.floor(rows / callers) + (caller < rows % callers ? 1 : 0)),
    ),
  );
}

async function callerLoop(audit: AuditLog, writer: string, caller: number, rows: number): Promise<void> {
  for (let index = 0; index < rows; index += 1) {
    await audit.append({
      event: "inquiry.balance",
      outcome: "success",
      userId: writer,
      roles: ["engineer"],
      clientAddress: "127.0.0.1",
      environment: "sandbox",
      operation: "balance_inquiry",
      card: "6006491000000001",
      upstreamStatus: 200,
      requestId: `req-${index}-bench${caller}`,
    });
  }
}

function rate(rows: number, started: number): string {
  return `${Math.round(rows / ((performance.now() - started) / 1000))} rows/s`;
}

async function verify(settings: StorageSettings, expected: number): Promise<void> {
  const { db } = await databases.open(settings);
  const result = await createAuditLog({ db, hmacKey: HMAC_KEY }).verify();
  if (!result.ok || result.rows !== expected)
    throw new Error(`chain check failed: ${JSON.stringify(result)}`);
}

if (process.argv[2] === "--writer") {
  // A child: one writer process on PostgreSQL. Says "ready" once connected, starts on "go" from the parent.
  const settings = { databaseUrl: process.argv[3]!, maxConnections: 1 };
  await databases.open(settings);
  process.stdout.write("ready\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  await appendRows(settings, process.argv[4]!, ROWS);
  await databases.close();
  process.exit(0);
}

/** Starts a writer process and resolves once it is connected; `go()` starts it and resolves when it is done. */
function writerProcess(databaseUrl: string, name: string): Promise<{ go: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", self, "--writer", databaseUrl, name],
    { cwd: root, env: { ...process.env, LOG_LEVEL: "warn" }, stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`writer ${name} exited with ${code}`)),
    ),
  );
  return new Promise((resolve, reject) => {
    exited.catch(reject);
    child.stdout.once("data", () =>
      resolve({
        go: () => {
          child.stdin.end("go\n");
          return exited;
        },
      }),
    );
  });
}

// Keep the bench's own output readable: audit log lines go nowhere.
process.env.LOG_LEVEL ??= "warn";
console.log(`audit append throughput, ${ROWS} rows per writer`);

const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-audit-"));
const cluster = await startPostgres();
try {
  const pglite = { dataDir };
  await databases.open(pglite);
  let started = performance.now();
  await appendRows(pglite, "one", ROWS);
  console.log(`PGlite      1 writer : ${rate(ROWS, started)}`);
  started = performance.now();
  await Promise.all([appendRows(pglite, "a", ROWS), appendRows(pglite, "b", ROWS)]);
  console.log(`PGlite      2 writers (one process, two audit logs): ${rate(2 * ROWS, started)}`);
  started = performance.now();
  await appendRows(pglite, "c", ROWS, CALLERS);
  console.log(`PGlite      ${CALLERS} concurrent callers, one audit log: ${rate(ROWS, started)}`);
  await verify(pglite, 4 * ROWS);

  const postgres = { databaseUrl: cluster.createDatabase("bench") };
  await databases.open(postgres);
  started = performance.now();
  await appendRows(postgres, "one", ROWS);
  console.log(`PostgreSQL  1 writer : ${rate(ROWS, started)}`);
  const writers = await Promise.all([
    writerProcess(postgres.databaseUrl, "a"),
    writerProcess(postgres.databaseUrl, "b"),
  ]);
  started = performance.now();
  await Promise.all(writers.map((writer) => writer.go()));
  console.log(`PostgreSQL  2 writers (two processes): ${rate(2 * ROWS, started)}`);
  started = performance.now();
  await appendRows(postgres, "c", ROWS, CALLERS);
  console.log(`PostgreSQL  ${CALLERS} concurrent callers, one audit log: ${rate(ROWS, started)}`);
  await verify(postgres, 4 * ROWS);
  console.log("chains verified: ok");
} finally {
  await databases.close();
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
