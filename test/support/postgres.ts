/**
 * A throwaway PostgreSQL cluster for tests: initdb in a temporary folder, a free loopback port, the unix socket
 * in that folder, started and stopped with pg_ctl, and removed after. Uses Debian's server binaries
 * (/usr/lib/postgresql/<version>/bin; `.ci/run` installs `postgresql` when absent). initdb refuses to run as
 * root, so as root the server runs as the `postgres` OS user, owning the folder. Under Vitest's integration
 * project one cluster serves the whole run (test/setup/postgres.ts) and each test file creates its databases in it.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./console-server";
import { provided, recordStart, type SharedPostgres } from "./shared";

export interface PostgresCluster {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  /** Creates an empty database and returns its URL. */
  createDatabase(name?: string): string;
  /** Runs SQL with psql as the superuser (tests that play an attacker with database access). */
  psql(databaseUrl: string, sqlText: string): string;
  stop(): Promise<void>;
}

function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(path.join(root, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      "PostgreSQL server binaries not found in /usr/lib/postgresql: install Debian's `postgresql`.",
    );
  }
  return path.join(root, versions[0]!, "bin");
}

function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

function run(command: string, args: string[]): string {
  const [file, argv] = asServerUser(command, args);
  return execFileSync(file, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

let databaseCounter = 0;

/**
 * Runs initdb and starts the server; what the run's global setup (test/setup/postgres.ts) calls once. Durable as
 * a production server (fsync, synchronous_commit and full-page writes on: the defaults), so what the tests see
 * committed is what a power loss would keep; it costs the storage tests nothing measurable on this machine.
 */
export async function launchPostgres(): Promise<SharedPostgres & { stop(): void }> {
  const bin = postgresBinDir();
  const folder = mkdtempSync(path.join(os.tmpdir(), "console-pg-"));
  const dataDir = path.join(folder, "data");
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(folder, uid, gid);
  }
  const port = await freePort();
  recordStart("initdb");
  run(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const options = [
    `-p ${port}`,
    `-k ${folder}`,
    "-c listen_addresses=127.0.0.1",
    // Test files running side by side share the cluster, each with consoles holding pools of 10.
    "-c max_connections=300",
  ].join(" ");
  run(path.join(bin, "pg_ctl"), [
    "-D",
    dataDir,
    "-o",
    options,
    "-l",
    path.join(folder, "server.log"),
    "-w",
    "start",
  ]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, folder, bin, stop };
}

/** The PostgresCluster API over a running server; `stop` is whatever ends it (nothing for the shared one). */
function clusterHandle(server: SharedPostgres, stop: () => Promise<void>): PostgresCluster {
  const psql = (databaseUrl: string, sqlText: string) =>
    run(path.join(server.bin, "psql"), [
      databaseUrl,
      "-X",
      "-q",
      "-t",
      "-A",
      "-v",
      "ON_ERROR_STOP=1",
      "-c",
      sqlText,
    ]);
  return {
    url: server.url,
    port: server.port,
    psql,
    createDatabase(name = `test_${process.pid}_${++databaseCounter}`) {
      psql(server.url, `create database "${name}"`);
      return `postgres://postgres@127.0.0.1:${server.port}/${name}`;
    },
    stop,
  };
}

/**
 * The run's shared cluster when a global setup started one (each caller creates its own databases in it; `stop`
 * leaves it running), else a cluster of this caller's own, stopped by `stop`.
 */
export async function startPostgres(): Promise<PostgresCluster> {
  const shared = provided("postgres");
  if (shared) return clusterHandle(shared, async () => {});
  const own = await launchPostgres();
  // A test run that ends without its afterAll (a crash, a time-out) still leaves no server behind.
  process.once("exit", own.stop);
  return clusterHandle(own, async () => {
    process.removeListener("exit", own.stop);
    own.stop();
  });
}
