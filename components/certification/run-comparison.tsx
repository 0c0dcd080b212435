"use client";

import { useId } from "react";
import { compareVerdicts, comparisonSentence } from "@/lib/client/certification-compare";
import type { RunSummary, Verdict } from "@/lib/shared/certification-contract";
import { environmentLabel } from "@/lib/client/environments";
import { VerdictBadge } from "./verdict-badge";

function runLabel(run: RunSummary): string {
  return `${environmentLabel(run.environment)} · ${new Date(run.started_at).toLocaleString()} · ${run.status}`;
}

/** The run against an earlier one: which cases changed verdict, e.g. sandbox then production. */
export function RunComparison({
  current,
  verdicts,
  runs,
  baselineId,
  onBaseline,
}: {
  current: string;
  verdicts: { id: string; verdict: Verdict }[];
  runs: RunSummary[];
  baselineId: string | null;
  onBaseline: (id: string | null) => void;
}) {
  const selectId = useId();
  const candidates = runs.filter((run) => run.id !== current);
  const baseline = candidates.find((run) => run.id === baselineId);
  const comparison = baseline ? compareVerdicts(baseline.verdicts, verdicts) : null;
  const differing = comparison?.changes.filter((change) => change.kind !== "same") ?? [];

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={selectId} className="text-sm font-medium text-fg">
          Compare with
        </label>
        <select
          id={selectId}
          value={baseline?.id ?? ""}
          onChange={(event) => onBaseline(event.target.value || null)}
          className="h-9 w-full min-w-0 rounded-md sm:w-auto sm:max-w-full border border-field bg-field px-3 text-sm shadow-sm"
        >
          <option value="">an earlier run…</option>
          {candidates.map((run) => (
            <option key={run.id} value={run.id}>
              {runLabel(run)}
            </option>
          ))}
        </select>
      </div>
      {comparison ? (
        <div className="grid gap-2" aria-live="polite">
          <p className="text-sm text-body">{comparisonSentence(comparison)}</p>
          {differing.length > 0 ? (
            <div className="relative overflow-x-auto">
              <table className="w-full max-w-xl text-left text-sm">
                <caption className="sr-only">Cases that differ between the two runs</caption>
                <thead className="text-xs text-subtle">
                  <tr>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Case
                    </th>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Earlier ({environmentLabel(baseline!.environment)})
                    </th>
                    <th scope="col" className="py-1 font-medium">
                      This run
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-default">
                  {differing.map((change) => (
                    <tr key={change.id} data-changed-case={change.id}>
                      <td className="py-1.5 pr-3 font-mono text-xs font-semibold">{change.id}</td>
                      <td className="py-1.5 pr-3">
                        <VerdictBadge verdict={change.before} />
                      </td>
                      <td className="py-1.5">
                        <VerdictBadge verdict={change.after} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
