"use client";

import Link from "next/link";
import { cx } from "@/components/ui/class-names";
import type { MonitorRunView } from "@/lib/shared/monitors-api";
import { isPassing } from "@/lib/shared/monitor-rules";

function describe(run: MonitorRunView): string {
  const when = new Date(run.started_at).toLocaleString();
  if (run.status === "running") return `Run of ${when}: under way`;
  const outcome = isPassing(run)
    ? "passed"
    : run.status === "done"
      ? `failed (${run.failed_cases.join(", ") || `${run.failed} cases`})`
      : `failed: ${run.status}`;
  return `Run of ${when}${run.late ? " (late)" : ""}${run.scheduled ? "" : " (run now)"}: ${outcome}`;
}

/** The recent runs, oldest to newest, as squares: green passed, red failed, grey under way; each opens its run. */
export function RunStrip({ runs }: { runs: readonly MonitorRunView[] }) {
  if (runs.length === 0) return <p className="text-sm text-muted">No run yet.</p>;
  return (
    <ol className="flex flex-wrap gap-1" aria-label="Recent runs, oldest first" data-testid="run-strip">
      {[...runs].reverse().map((run) => (
        <li key={run.id}>
          <Link
            href={`/certification/runs/${encodeURIComponent(run.id)}`}
            title={describe(run)}
            aria-label={describe(run)}
            data-outcome={run.status === "running" ? "running" : isPassing(run) ? "passed" : "failed"}
            className={cx(
              "block size-4 rounded-sm ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500",
              run.status === "running"
                ? "animate-pulse bg-pending ring-pending"
                : isPassing(run)
                  ? "bg-success-solid ring-emerald-700/40"
                  : "bg-danger-solid ring-red-700/40",
              run.late && "outline-2 outline-offset-1 outline-amber-500",
            )}
          />
        </li>
      ))}
    </ol>
  );
}
