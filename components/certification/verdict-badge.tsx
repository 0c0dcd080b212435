import { StatusBadge } from "@/components/ui/status-badge";
import type { Verdict } from "@/lib/shared/certification-contract";

/** A case's verdict; a case without one has not run. */
export function VerdictBadge({ verdict }: { verdict: Verdict | null }) {
  return <StatusBadge status={verdict ?? "not_run"} />;
}

export function VerdictCountsLine({
  summary,
}: {
  summary: { pass: number; fail: number; observed: number; not_applicable: number };
}) {
  return (
    <span className="text-sm whitespace-nowrap text-slate-700 tabular-nums dark:text-slate-300">
      <span className="text-emerald-700 dark:text-emerald-300">{summary.pass} pass</span>
      {" · "}
      <span className={summary.fail > 0 ? "font-semibold text-red-700 dark:text-red-300" : undefined}>
        {summary.fail} fail
      </span>
      {" · "}
      {summary.observed} observed · {summary.not_applicable} n/a
    </span>
  );
}
