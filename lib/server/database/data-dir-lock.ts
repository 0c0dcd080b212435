/**
 * A lock file that keeps a second process from opening the same embedded database (PGlite is single-process;
 * two writers would corrupt it). A lock left by a process that no longer runs is taken over.
 */
import "server-only";
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export interface DataDirLock {
  release(): void;
}

export class DataDirInUseError extends Error {
  constructor(folder: string, pid: number) {
    super(
      `The embedded database in ${folder} is in use by process ${pid}. PGlite is single-process: give each ` +
        `console its own DATA_DIR, or set DATABASE_URL to share a PostgreSQL server between instances.`,
    );
    this.name = "DataDirInUseError";
  }
}

function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Folders this process holds, across Next's bundle copies of this module (a container restart can reuse a pid). */
const HELD_KEY = Symbol.for("card-services-console.data-dir-locks");
const held: Set<string> = ((globalThis as Record<symbol, unknown>)[HELD_KEY] ??=
  new Set<string>()) as Set<string>;

export function acquireDataDirLock(folder: string): DataDirLock {
  const file = path.join(folder, "console.lock");
  if (held.has(file)) throw new DataDirInUseError(folder, process.pid);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const descriptor = openSync(file, "wx", 0o600);
      writeSync(descriptor, String(process.pid));
      closeSync(descriptor);
      held.add(file);
      const release = () => {
        process.removeListener("exit", release);
        held.delete(file);
        try {
          if (readFileSync(file, "utf8") === String(process.pid)) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
      process.once("exit", release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let holder = NaN;
      try {
        holder = Number.parseInt(readFileSync(file, "utf8"), 10);
      } catch {
        continue; // Released between our open and read: try again.
      }
      if (Number.isInteger(holder) && holder !== process.pid && processIsRunning(holder)) {
        throw new DataDirInUseError(folder, holder);
      }
      try {
        unlinkSync(file); // A stale lock: its process is gone (or had our pid before a restart).
      } catch {
        // Someone else removed it first.
      }
    }
  }
  throw new Error(`Could not take the lock file ${file}.`);
}
