import { Badge } from "@/components/ui/badge";
import type {
  ClientCallRecord,
  ClientCheckResult,
  ClientVerdict,
} from "@/lib/shared/client-certification-contract";
import { callAnchor } from "./call-log";

const VERDICT_BADGE: Record<ClientVerdict, { label: string; tone: "success" | "danger" | "neutral" }> = {
  pass: { label: "pass", tone: "success" },
  fail: { label: "fail", tone: "danger" },
  not_observed: { label: "not observed", tone: "neutral" },
};

/** A failed check's calls, each a link to its entry in the log (opened, highlighted, scrolled to). */
function BrokenBy({
  check,
  calls,
  onShowCalls,
}: {
  check: ClientCheckResult;
  calls: ClientCallRecord[];
  onShowCalls: (ids: string[]) => void;
}) {
  if (check.verdict !== "fail" || check.exchange_ids.length === 0) return null;
  const byId = new Map(calls.map((call) => [call.id, call]));
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <span className="text-body">Calls behind it:</span>
      {check.exchange_ids.map((id) => {
        const call = byId.get(id);
        if (!call) return null;
        return (
          <a
            key={id}
            href={`#${callAnchor(id)}`}
            // The one clicked first: the log scrolls to it; the check's other calls are highlighted too.
            onClick={() => onShowCalls([id, ...check.exchange_ids.filter((other) => other !== id)])}
            className="font-mono text-xs break-all text-info underline"
          >
            {call.seq !== undefined ? `#${call.seq} ` : ""}
            {call.method} {call.path} → {call.status}
          </a>
        );
      })}
    </div>
  );
}

/** The eight checks, green or red as the traffic comes; not observed until the traffic they need happens. */
export function ClientChecks({
  checks,
  calls = [],
  onShowCalls = () => {},
}: {
  checks: ClientCheckResult[];
  calls?: ClientCallRecord[];
  onShowCalls?: (ids: string[]) => void;
}) {
  return (
    <ul className="grid min-w-0 grid-cols-1 gap-2" aria-label="Checks">
      {checks.map((check) => (
        <li
          key={check.id}
          data-check={check.id}
          data-verdict={check.verdict}
          className="rounded-lg border border-raised p-3"
        >
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={VERDICT_BADGE[check.verdict].tone}>{VERDICT_BADGE[check.verdict].label}</Badge>
            <span className="font-mono text-xs">{check.id}</span>
            <span className="text-sm font-medium">{check.title}</span>
            <span className="text-xs text-muted">{check.spec}</span>
          </div>
          <p className="mt-1 text-sm break-words text-body">{check.observed}</p>
          {check.basis ? <p className="mt-1 text-xs break-words text-muted">Basis: {check.basis}</p> : null}
          <BrokenBy check={check} calls={calls} onShowCalls={onShowCalls} />
        </li>
      ))}
    </ul>
  );
}
