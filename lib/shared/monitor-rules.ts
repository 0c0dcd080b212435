/**
 * The monitors' rules the pages and the server share, kept apart from the zod schemas (monitors-api.ts) so a
 * page that needs only these does not ship zod.
 */
import type { MonitorRunView } from "./monitors-api";

/** A week: the longest period between two scheduled runs. */
export const MAX_EVERY_MINUTES = 10_080;
/** The most monitors a console keeps, and one user may create: nobody grows storage or metric labels unbounded. */
export const MAX_MONITORS = 50;
export const MAX_MONITORS_PER_USER = 10;
/** The most consecutive failing runs a monitor may wait for before it alerts. */
export const MAX_ALERT_AFTER_FAILURES = 10;
/** Runs `GET /api/monitors/{id}` answers. */
export const MONITOR_RUNS_SHOWN = 50;
/** Deliveries `GET /api/monitors/{id}/deliveries` answers. */
export const MONITOR_DELIVERIES_SHOWN = 50;

/**
 * The cases that changed between the last good run and the first bad one after it (newest first in `runs`):
 * what broke. Empty when there is no such pair.
 */
export function casesThatBroke(
  runs: readonly MonitorRunView[],
): { good: string; bad: string; cases: string[] } | null {
  for (let index = 0; index < runs.length - 1; index += 1) {
    const bad = runs[index];
    const good = runs[index + 1];
    if (bad && good && isPassing(good) && !isPassing(bad)) {
      return {
        good: good.id,
        bad: bad.id,
        cases: bad.failed_cases.filter((id) => !good.failed_cases.includes(id)),
      };
    }
  }
  return null;
}

/** A run passes when it ended on its own with no failed case; one that could not finish counts as failing. */
export function isPassing(run: { status: string; failed: number }): boolean {
  return run.status === "done" && run.failed === 0;
}
