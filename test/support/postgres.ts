/**
 * A throwaway PostgreSQL cluster for tests: initdb in a temporary folder, a free loopback port, the unix socket
 * in that folder, started and stopped with pg_ctl, and removed after. Uses Debian's server binaries
 * (/usr/lib/postgresql/<version>/bin; `.ci/run` installs `postgresql` when absent). initdb refuses to run as
 * root, so as root the server runs as the `postgres` OS user, owning the folder.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./console-server";

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

export function postgresBinDir(): string {
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

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const folder = mkdtempSync(path.join(os.tmpdir(), "console-pg-"));
  const dataDir = path.join(folder, "data");
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(folder, uid, gid);
  }
  const port = await freePort();
  run(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const options = [
    `-p ${port}`,
    `-k ${folder}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=100",
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
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const psql = (databaseUrl: string, sqlText: string) =>
    run(path.join(bin, "psql"), [
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
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  // A test run that ends without its afterAll (a crash, a time-out) still leaves no server behind.
  process.once("exit", stopNow);
  return {
    url,
    port,
    psql,
    createDatabase(name = `test_${process.pid}_${++databaseCounter}`) {
      psql(url, `create database "${name}"`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      process.removeListener("exit", stopNow);
      stopNow();
    },
  };
}
