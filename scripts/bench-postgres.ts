/**
 * The bench's throwaway PostgreSQL cluster: like the test harness's (test/support/postgres.ts), but durable:
 * fsync and synchronous_commit on, so commit latency is measured as a production server would pay it.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Debian's newest PostgreSQL server binaries. Not imported from test/support/postgres.ts: that module reads
 * Vitest's provided values, and Vitest cannot be loaded outside a test run.
 */
function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(path.join(root, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error("PostgreSQL server binaries not found in /usr/lib/postgresql");
  return path.join(root, versions[0]!, "bin");
}

function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

function run(command: string, args: string[]): string {
  const [file, argv] = asServerUser(command, args);
  return execFileSync(file, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export interface BenchCluster {
  /** URL of an empty database for one console. */
  url: string;
  stop(): void;
}

export function startDurablePostgres(port: number): BenchCluster {
  const bin = postgresBinDir();
  const folder = mkdtempSync(path.join(os.tmpdir(), "bench-pg-"));
  const dataDir = path.join(folder, "data");
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(folder, uid, gid);
  }
  run(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8"]);
  const options = [`-p ${port}`, `-k ${folder}`, "-c listen_addresses=127.0.0.1", "-c fsync=on"];
  options.push("-c synchronous_commit=on", "-c max_connections=100");
  run(path.join(bin, "pg_ctl"), [
    "-D",
    dataDir,
    "-o",
    options.join(" "),
    "-l",
    path.join(folder, "log"),
    "-w",
    "start",
  ]);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  run(path.join(bin, "psql"), [admin, "-X", "-q", "-c", "create database bench"]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  process.once("exit", stop);
  return { url: `postgres://postgres@127.0.0.1:${port}/bench`, stop };
}
