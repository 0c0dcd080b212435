/**
 * The rules of a monitor's schedule and alerts (docs/design.md §13), free of storage and clocks so that they are
 * tested alone: when a claimed run is late, what a finished run makes of the monitor's state, which alert a
 * change sends, and when a failed delivery is tried again.
 */
import type { AlertType, MonitorState } from "@/lib/shared/monitors-api";
import { isPassing } from "@/lib/shared/monitor-rules";

/** A due run started this long after its time was missed (every instance was down), not merely picked up late. */
const LATE_AFTER_MS = 60_000;

/** Whether a run claimed at `now` for the time `due` is late. */
export function isLate(due: Date, now: Date): boolean {
  return now.getTime() - due.getTime() > LATE_AFTER_MS;
}

/**
 * When the next scheduled run is due: one period after this scheduled run's start. Slots missed meanwhile are
 * not made up: a console down for a day runs the monitor once when it is back, not once per missed slot.
 */
export function nextRunAfter(start: Date, everyMinutes: number): Date {
  return new Date(start.getTime() + everyMinutes * 60_000);
}

/** What a monitor keeps between runs to decide its alerts. */
export interface AlertState {
  state: MonitorState;
  failingRuns: number;
}

/**
 * The state after a run ended, and the alert the change sends. A failing run (one that could not finish counts)
 * turns the monitor failing only at its `alertAfter`-th in a row, so a case that fails one run in three never
 * alerts with 2 or more; a passing run resets the count and, after failing, alerts "recovered". The first run
 * alerts only when it fails; no change, no alert.
 */
export function afterRun(
  current: AlertState,
  run: { status: string; failed: number },
  alertAfter: number,
): AlertState & { alert: Exclude<AlertType, "monitor.test"> | null } {
  if (isPassing(run)) {
    return {
      state: "passing",
      failingRuns: 0,
      alert: current.state === "failing" ? "monitor.recovered" : null,
    };
  }
  const failingRuns = current.failingRuns + 1;
  const state = current.state === "failing" || failingRuns >= alertAfter ? "failing" : current.state;
  return {
    state,
    failingRuns,
    alert: state === "failing" && current.state !== "failing" ? "monitor.failing" : null,
  };
}

/** Attempts of one delivery, as minutes after it was made (or redelivered): then it is given up. */
const ATTEMPT_OFFSETS_MIN = [0, 1, 5, 15, 40];

/**
 * When a delivery whose retries began at `retryFrom` is tried after its `attempts`-th failed attempt, or null:
 * give up (about 40 minutes on, well within the hour).
 */
export function nextAttempt(retryFrom: Date, attempts: number, now: Date): Date | null {
  const offset = ATTEMPT_OFFSETS_MIN[attempts];
  if (offset === undefined) return null;
  return new Date(Math.max(now.getTime(), retryFrom.getTime() + offset * 60_000));
}
