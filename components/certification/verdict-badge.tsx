import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { RunStatus, Verdict } from "@/lib/certification/types";

const VERDICTS: Record<Verdict, { label: string; tone: BadgeTone }> = {
  pass: { label: "pass", tone: "success" },
  fail: { label: "fail", tone: "danger" },
  observed: { label: "observed", tone: "info" },
  not_applicable: { label: "not applicable", tone: "neutral" },
};

const STATUSES: Record<RunStatus, { label: string; tone: BadgeTone }> = {
  queued: { label: "queued", tone: "neutral" },
  running: { label: "running", tone: "accent" },
  done: { label: "done", tone: "success" },
  cancelled: { label: "cancelled", tone: "warning" },
  interrupted: { label: "interrupted", tone: "warning" },
};

export function VerdictBadge({ verdict }: { verdict: Verdict | null }) {
  if (verdict === null) return <Badge tone="neutral">not run</Badge>;
  const { label, tone } = VERDICTS[verdict];
  return <Badge tone={tone}>{label}</Badge>;
}

export function RunStatusBadge({ status }: { status: RunStatus }) {
  const { label, tone } = STATUSES[status];
  return <Badge tone={tone}>{label}</Badge>;
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
