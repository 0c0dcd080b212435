import { Badge } from "@/components/ui/badge";
import type { ClientCheckResult, ClientVerdict } from "@/lib/shared/client-certification-contract";

const VERDICT_BADGE: Record<ClientVerdict, { label: string; tone: "success" | "danger" | "neutral" }> = {
  pass: { label: "pass", tone: "success" },
  fail: { label: "fail", tone: "danger" },
  not_observed: { label: "not observed", tone: "neutral" },
};

/** The eight checks, green or red as the traffic comes; not observed until the traffic they need happens. */
export function ClientChecks({ checks }: { checks: ClientCheckResult[] }) {
  return (
    <ul className="grid min-w-0 grid-cols-1 gap-2" aria-label="Checks">
      {checks.map((check) => (
        <li
          key={check.id}
          data-check={check.id}
          data-verdict={check.verdict}
          className="rounded-lg border border-slate-200 p-3 dark:border-slate-700"
        >
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={VERDICT_BADGE[check.verdict].tone}>{VERDICT_BADGE[check.verdict].label}</Badge>
            <span className="font-mono text-xs">{check.id}</span>
            <span className="text-sm font-medium">{check.title}</span>
            <span className="text-xs text-slate-600 dark:text-slate-400">{check.spec}</span>
          </div>
          <p className="mt-1 text-sm break-words text-slate-700 dark:text-slate-300">{check.observed}</p>
        </li>
      ))}
    </ul>
  );
}
