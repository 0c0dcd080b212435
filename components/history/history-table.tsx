"use client";

import { operationLabel } from "@/lib/shared/operations";
import { environmentLabel } from "@/lib/client/environments";
import { summarizeExchange, type ExchangeOutcome } from "@/lib/client/exchange-summary";
import type { HistoryRun } from "@/lib/client/history-store";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { Skeleton } from "@/components/ui/skeleton";
import { HttpStatusBadge } from "@/components/ui/http-status-badge";

const OUTCOME_TONES: Record<ExchangeOutcome, BadgeTone> = {
  approved: "success",
  declined: "warning",
  success: "neutral",
  failure: "danger",
};

const dateFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
const timeFormat = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

const head = "px-2.5 py-2 text-left text-xs font-semibold tracking-wide text-muted uppercase";

export interface RowActions {
  onOpen: (run: HistoryRun) => void;
  onReplay: (run: HistoryRun, reuseRequestId: boolean) => void;
  onDelete: (run: HistoryRun) => void;
  onToggleSelected: (run: HistoryRun) => void;
}

export function HistoryTableSkeleton() {
  return (
    <div aria-hidden="true" className="divide-y divide-subtle">
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="flex h-14 items-center gap-4 px-2.5">
          <Skeleton className="h-4 w-4" />
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-4 w-20" />
          <Skeleton className="h-5 w-24" />
          <Skeleton className="ml-auto h-7 w-40" />
        </div>
      ))}
    </div>
  );
}

export function HistoryTable({
  runs,
  selected,
  labelledBy,
  actions,
}: {
  runs: readonly HistoryRun[];
  selected: readonly string[];
  labelledBy: string;
  actions: RowActions;
}) {
  return (
    // Fits from 390 px up without scrolling sideways: a table from lg, one wrapped card per run below, with
    // every action (Open, Replay, Reuse Id, Delete) always on screen.
    <div role="region" aria-label="Runs table">
      <table className="w-full text-sm max-lg:block" aria-labelledby={labelledBy} data-testid="history-table">
        <thead className="border-b border-default max-lg:sr-only">
          <tr>
            <th scope="col" className={cx(head, "w-10")}>
              <span className="sr-only">Select for diff</span>
            </th>
            <th scope="col" className={head}>
              Time
            </th>
            <th scope="col" className={head}>
              Operation
            </th>
            <th scope="col" className={head}>
              Environment
            </th>
            <th scope="col" className={head}>
              Status
            </th>
            <th scope="col" className={head}>
              Result
            </th>
            <th scope="col" className={cx(head, "text-right")}>
              Took
            </th>
            <th scope="col" className={cx(head, "text-right")}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-subtle max-lg:block">
          {runs.map((run) => {
            const { exchange } = run;
            const started = new Date(run.started_at);
            const summary = summarizeExchange(exchange);
            // The status has its own column: a failure's result is what follows "HTTP 409 · ".
            const result =
              summary.outcome === "failure"
                ? summary.label.replace(/^HTTP \d+( · )?/, "") || "no body"
                : summary.label;
            const isSelected = selected.includes(run.id);
            const name = `${operationLabel(exchange.operation)}${run.card ? ` ${run.card.masked}` : ""} at ${timeFormat.format(started)}`;
            return (
              <tr
                key={run.id}
                data-run-id={run.id}
                className={cx(
                  "h-14 hover:bg-raised/50",
                  "max-lg:flex max-lg:h-auto max-lg:flex-wrap max-lg:items-center max-lg:gap-x-3 max-lg:gap-y-1.5 max-lg:px-2.5 max-lg:py-3",
                  isSelected && "bg-accent-soft",
                )}
              >
                <td className="px-2.5 max-lg:px-0">
                  <input
                    type="checkbox"
                    checked={isSelected}
                    onChange={() => actions.onToggleSelected(run)}
                    aria-label={`Select ${name} for diff`}
                    className="size-4 accent-indigo-600"
                  />
                </td>
                <td className="px-2.5 whitespace-nowrap max-lg:px-0">
                  <time
                    dateTime={run.started_at}
                    title={started.toLocaleString()}
                    className="block tabular-nums"
                  >
                    <span className="block text-fg">{timeFormat.format(started)}</span>
                    <span className="block text-xs text-muted">{dateFormat.format(started)}</span>
                  </time>
                </td>
                <td className="px-2.5 max-lg:order-1 max-lg:w-full max-lg:px-0">
                  {/* The name may wrap and "free-form" has a line of its own: beside the name, unbroken, it
                      widened the table past its card at 1440 px. */}
                  <span className="block font-medium text-fg">{operationLabel(exchange.operation)}</span>
                  {exchange.free_form ? <span className="block text-xs text-muted">free-form</span> : null}
                  {/* The location on a line of its own, free to wrap: unbroken, it widened the table past its
                      card at 1440 px and pushed Reuse Id and Delete out of view. */}
                  <span className="block font-mono text-xs break-all text-muted">
                    {run.card ? run.card.masked : run.token ? `token ${run.token.fingerprint}` : "—"}
                  </span>
                  {run.location_id ? (
                    <span className="block max-w-56 font-mono text-xs break-all text-muted">
                      {run.location_id}
                    </span>
                  ) : null}
                </td>
                <td className="px-2.5 whitespace-nowrap text-body max-lg:order-2 max-lg:px-0 max-lg:text-xs">
                  <span title={environmentLabel(exchange.environment)}>{exchange.environment}</span>
                </td>
                <td className="px-2.5 max-lg:order-2 max-lg:px-0">
                  <HttpStatusBadge status={exchange.response.status} />
                </td>
                <td className="max-w-40 px-2.5 max-lg:order-2 max-lg:max-w-full max-lg:min-w-0 max-lg:px-0">
                  <Badge tone={OUTCOME_TONES[summary.outcome]} className="max-w-full">
                    <span className="truncate" title={result}>
                      {result}
                    </span>
                  </Badge>
                </td>
                <td className="px-2.5 text-right whitespace-nowrap text-muted tabular-nums max-lg:order-2 max-lg:px-0 max-lg:text-xs">
                  {Math.round(exchange.duration_ms)} ms
                </td>
                <td className="px-2.5 max-lg:order-3 max-lg:w-full max-lg:px-0 lg:w-px">
                  <div className="flex items-center justify-end gap-1 whitespace-nowrap max-lg:justify-start">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => actions.onOpen(run)}
                      aria-label={`Open ${name}`}
                    >
                      Open
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => actions.onReplay(run, false)}
                      aria-label={`Replay ${name}`}
                    >
                      Replay
                    </Button>
                    {exchange.operation === "gift_balance_inquiry" && exchange.request_id ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => actions.onReplay(run, true)}
                        aria-label={`Reuse Id: replay ${name} with the same Request Id`}
                        title="Replay with the same Request Id (the sandbox answers 409)"
                      >
                        Reuse Id
                      </Button>
                    ) : (
                      // Keeps the columns aligned whether or not the row offers the action.
                      <span aria-hidden="true" className="invisible h-8 px-2.5 text-xs max-lg:hidden">
                        Reuse Id
                      </span>
                    )}
                    <Button
                      size="sm"
                      variant="ghost-danger"
                      iconOnly
                      onClick={() => actions.onDelete(run)}
                      aria-label={`Delete ${name}`}
                      title="Delete this run"
                    >
                      <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
                        <path
                          fillRule="evenodd"
                          d="M8.75 1A2.75 2.75 0 0 0 6 3.75v.443c-.795.077-1.584.176-2.365.298a.75.75 0 1 0 .23 1.482l.149-.022.841 10.518A2.75 2.75 0 0 0 7.596 19h4.807a2.75 2.75 0 0 0 2.742-2.53l.841-10.52.149.023a.75.75 0 0 0 .23-1.482A41.03 41.03 0 0 0 14 4.193V3.75A2.75 2.75 0 0 0 11.25 1h-2.5ZM10 4c.84 0 1.673.025 2.5.075V3.75c0-.69-.56-1.25-1.25-1.25h-2.5c-.69 0-1.25.56-1.25 1.25v.325C8.327 4.025 9.16 4 10 4ZM8.58 7.72a.75.75 0 0 0-1.5.06l.3 7.5a.75.75 0 1 0 1.5-.06l-.3-7.5Zm4.34.06a.75.75 0 1 0-1.5-.06l-.3 7.5a.75.75 0 1 0 1.5.06l.3-7.5Z"
                          clipRule="evenodd"
                        />
                      </svg>
                    </Button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
