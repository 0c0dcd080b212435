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
    <span className="text-sm whitespace-nowrap text-body tabular-nums">
      <span className="text-success">{summary.pass} pass</span>
      {" · "}
      <span className={summary.fail > 0 ? "font-semibold text-danger" : undefined}>{summary.fail} fail</span>
      {" · "}
      {summary.observed} observed · {summary.not_applicable} n/a
    </span>
  );
}
