"use client";

import { useId } from "react";
import { Alert } from "@/components/ui/alert";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { RULED_HEAD, TableHead } from "@/components/ui/table-head";
import { cx } from "@/components/ui/class-names";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { evidenceUrl, isActive, useRuns } from "@/lib/client/use-certification-api";
import { environmentLabel } from "@/lib/client/environments";
import { StatusBadge } from "@/components/ui/status-badge";
import { VerdictCountsLine } from "./verdict-badge";

const COLUMNS = [
  { key: "started", label: "Started" },
  { key: "environment", label: "Environment" },
  { key: "status", label: "Status" },
  { key: "verdicts", label: "Verdicts" },
  { key: "operator", label: "Operator" },
  { key: "actions", label: "Actions", srOnly: true, className: "py-2 font-medium" },
];

export function RunsList({
  selected,
  onSelect,
  catalogueSize,
}: {
  selected: string | null;
  onSelect: (id: string) => void;
  /** The whole catalogue's size: a run of fewer cases is marked partial. */
  catalogueSize: number;
}) {
  const { data, error } = useRuns();
  const titleId = useId();
  return (
    <Panel
      className="min-w-0"
      title="Runs"
      titleId={titleId}
      description="Every run kept on the server, newest first, whoever started it."
    >
      {error ? (
        <Alert tone="danger" title="The runs cannot be listed" role="alert">
          {error.message}
        </Alert>
      ) : !data ? (
        <Skeleton className="h-24 w-full" />
      ) : data.runs.length === 0 ? (
        <p className="text-sm text-muted">No run yet.</p>
      ) : (
        <ScrollRegion label="Certification runs">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Certification runs</caption>
            <TableHead columns={COLUMNS} className={RULED_HEAD} cellClassName="py-2 pr-3 font-medium" />
            <tbody className="divide-y divide-default">
              {data.runs.map((run) => (
                <tr key={run.id} data-run={run.id} className={cx(run.id === selected && "bg-accent-soft/60")}>
                  <td className="py-2 pr-3 whitespace-nowrap tabular-nums">
                    {new Date(run.started_at).toLocaleString()}
                  </td>
                  <td className="py-2 pr-3">{environmentLabel(run.environment)}</td>
                  <td className="py-2 pr-3">
                    <StatusBadge status={run.status} />{" "}
                    {isActive(run.status) ? (
                      <span className="text-xs text-subtle tabular-nums">
                        {run.done}/{run.total}
                      </span>
                    ) : null}
                    {run.total < catalogueSize ? (
                      // A run of selected cases proves less than the catalogue: say so where runs are compared.
                      <span className="block text-xs text-warning" data-testid="run-partial">
                        partial: {run.total} of {catalogueSize} cases
                      </span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-3">
                    <VerdictCountsLine summary={run.summary} />
                  </td>
                  <td className="py-2 pr-3">{run.operator}</td>
                  <td className="py-2 text-right whitespace-nowrap">
                    <button
                      type="button"
                      onClick={() => onSelect(run.id)}
                      aria-current={run.id === selected ? "true" : undefined}
                      className="font-medium text-accent hover:underline"
                    >
                      Open<span className="sr-only"> run of {new Date(run.started_at).toLocaleString()}</span>
                    </button>
                    {!isActive(run.status) ? (
                      <>
                        {" · "}
                        <a
                          href={evidenceUrl(run.id)}
                          download
                          className="font-medium text-accent hover:underline"
                        >
                          Bundle
                        </a>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Panel>
  );
}
