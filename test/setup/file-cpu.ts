/**
 * Runs in every test file (setupFiles, listed first so its afterAll runs last): when $TEST_CPU_LOG names a
 * file, appends one JSON line per test file with the CPU seconds that file cost, for the closing lines of
 * `npm test` (scripts/test.mjs prints the slowest ten).
 *
 * What it measures: the worker process's own CPU (user + system) from the file's start to its end, plus the
 * CPU of every process the file started and that ended before it did (consoles, sandboxes, PostgreSQL
 * clients, `java`, `go`, `python3`: Linux adds a reaped child's CPU, its own children's included, to its
 * parent's cutime/cstime). A worker runs one file at a time, so the difference is that file's. Not counted:
 * the run's shared resources started by a global setup (the shared consoles, Chromium, the PostgreSQL
 * cluster), whose work for a file is done in other processes. Off Linux it counts the worker alone.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, expect } from "vitest";

const log = process.env.TEST_CPU_LOG;

/** Clock ticks per second of /proc's times: 100 on every Linux that Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU seconds of this process and its reaped children so far. */
function cpuSeconds(): number {
  try {
    // Fields after the command name (which may hold spaces, hence from the last ")"): utime is the 12th,
    // stime, cutime and cstime follow.
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    return ticks / TICKS_PER_SECOND;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  }
}

if (log) {
  // Taken as the file starts, before it is imported: the modules it is first in its worker to load count too.
  const startedAt = cpuSeconds();
  const startedWall = Date.now();
  afterAll(() => {
    const file = expect.getState().testPath ?? "unknown";
    const line = {
      file: file.startsWith(process.cwd()) ? file.slice(process.cwd().length + 1) : file,
      cpu: Number((cpuSeconds() - startedAt).toFixed(2)),
      wall: Number(((Date.now() - startedWall) / 1000).toFixed(2)),
      // When it ended (ms since the epoch): with `wall`, when each file ran beside which.
      endedAt: Date.now(),
    };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}
