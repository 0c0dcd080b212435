/**
 * The rules of a monitor's schedule and alerts (docs/design.md §13), free of storage and clocks so that they are
 * tested alone: when a claimed run is late, what a finished run makes of the monitor's state, which alert a
 * change sends, and when a failed delivery is tried again.
 */
import type { MonitorState } from "@/lib/shared/monitors-api";
import { isPassing } from "@/lib/shared/monitor-rules";

/** A due run started this long after its time was missed (every instance was down), not merely picked up late. */
const LATE_AFTER_MS = 60_000;
/** Alerts are retried for an hour after they were made, then given up (and shown on the monitor). */
export const DELIVERY_GIVE_UP_MS = 60 * 60_000;

export type AlertEvent = "monitor_failing" | "monitor_recovered";

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

/** The monitor's state after a run ended (`status` the docs/design.md §8 run's; a run that could not finish is failing). */
export function stateAfter(run: { status: string; failed: number }): Exclude<MonitorState, "unknown"> {
  return isPassing(run) ? "passing" : "failing";
}

/** The alert a change of state sends: the first run alerts only when it fails; no change, no alert. */
export function alertFor(previous: MonitorState, next: Exclude<MonitorState, "unknown">): AlertEvent | null {
  if (previous === next) return null;
  if (next === "failing") return "monitor_failing";
  return previous === "failing" ? "monitor_recovered" : null;
}

/** When the `attempts`-th failed delivery is tried again: 15 s, 30 s, 1 min, … at most 10 min apart. */
function retryDelayMs(attempts: number): number {
  return Math.min(15_000 * 2 ** Math.max(0, attempts - 1), 10 * 60_000);
}

/** The next attempt of a delivery made at `createdAt` that failed for the `attempts`-th time, or null: give up. */
export function nextAttempt(createdAt: Date, attempts: number, now: Date): Date | null {
  const at = new Date(now.getTime() + retryDelayMs(attempts));
  return at.getTime() - createdAt.getTime() > DELIVERY_GIVE_UP_MS ? null : at;
}
