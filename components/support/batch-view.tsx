"use client";

import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { StatusBadge } from "@/components/ui/status-badge";
import { TableHead } from "@/components/ui/table-head";
import { ProgressBar } from "@/components/ui/progress-bar";
import { PURSES, purseLabel } from "@/lib/shared/purses";
import type { SupportBatchProgress } from "@/lib/shared/support-contract";
import { supportKeys, useBatchProgress, useBatchResults, useCancelBatch } from "@/lib/client/use-support-api";
import { dotsLast4 } from "./lookup-messages";

const RESULT_COLUMNS = [
  { key: "line", label: "Line" },
  { key: "card", label: "Card" },
  { key: "status", label: "Status" },
  ...PURSES.map((purse) => ({ key: purse, label: purseLabel(purse), className: "px-3 py-2 text-right" })),
];

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${seconds % 60} s`;
}

/** A batch's page: progress with counts, rate and time left, cancel, masked results and the CSV. */
export function BatchView({ id }: { id: string }) {
  const { data: batch, error, mutate } = useBatchProgress(id);
  const running = batch ? batch.status === "queued" || batch.status === "running" : true;
  const cancel = useCancelBatch(id);

  return (
    <>
      <PageHeader
        title="Support batch"
        description={
          <>
            Runs on the server; this page&apos;s link brings you back to it. Results are kept for 24 hours.{" "}
            <Link href="/support" className="underline">
              Back to the support desk
            </Link>
          </>
        }
      />
      {error ? (
        <Alert tone="danger" role="alert" title="This batch cannot be shown">
          {error.message}
        </Alert>
      ) : !batch ? (
        <Skeleton className="h-32" />
      ) : (
        <div className="space-y-6">
          <Panel
            title={
              <span className="flex items-center gap-2">
                Progress <StatusBadge status={batch.status} />
              </span>
            }
            titleId="batch-progress-title"
            actions={
              <>
                {running ? (
                  <Button
                    variant="danger"
                    busy={cancel.isMutating}
                    onClick={() => void cancel.trigger().then((next) => mutate(next, { revalidate: false }))}
                  >
                    Cancel batch
                  </Button>
                ) : null}
                <a className={buttonClasses("secondary")} href={supportKeys.resultsCsv(id)} download>
                  Download CSV
                </a>
              </>
            }
          >
            <BatchProgress batch={batch} />
          </Panel>
          {batch.bad_line_count > 0 ? (
            <Alert
              tone="warning"
              title={`${batch.bad_line_count} line${batch.bad_line_count === 1 ? "" : "s"} skipped`}
            >
              <ul className="list-inside list-disc">
                {batch.bad_lines.slice(0, 20).map((bad) => (
                  <li key={bad.line}>
                    Line {bad.line}: {bad.message}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <ResultsTable id={id} running={running} />
        </div>
      )}
    </>
  );
}

function BatchProgress({ batch }: { batch: SupportBatchProgress }) {
  return (
    <div className="space-y-3">
      <ProgressBar
        label="Cards looked up"
        value={batch.done}
        max={batch.total}
        valueText={`${batch.done} of ${batch.total} cards`}
      />
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5" aria-label="Batch counts">
        <Figure label="Done" value={`${batch.done} / ${batch.total}`} />
        <Figure label="Failed" value={String(batch.failed)} />
        <Figure label="Cancelled" value={String(batch.cancelled)} />
        <Figure label="Rate" value={batch.rate === null ? "—" : `${batch.rate} cards/s`} />
        <Figure label="Time left" value={batch.eta_seconds === null ? "—" : duration(batch.eta_seconds)} />
      </dl>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="font-mono text-lg font-semibold text-slate-900 tabular-nums dark:text-white">{value}</dd>
    </div>
  );
}

function ResultsTable({ id, running }: { id: string; running: boolean }) {
  const { data } = useBatchResults(id, running);
  return (
    <Panel
      title="Results (first 100; the CSV has every card)"
      titleId="batch-results-title"
      bodyClassName="px-0 py-0"
    >
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-labelledby="batch-results-title">
          <TableHead
            columns={RESULT_COLUMNS}
            className="bg-slate-50 text-xs text-slate-600 dark:bg-slate-950 dark:text-slate-400"
            cellClassName="px-4 py-2"
          />
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {(data?.rows ?? []).map((row) => (
              <tr key={row.position}>
                <td className="px-4 py-1.5 tabular-nums">{row.line}</td>
                <td className="px-4 py-1.5 font-mono whitespace-nowrap">{dotsLast4(row.last4)}</td>
                <td className="px-4 py-1.5 whitespace-nowrap" title={row.error ?? undefined}>
                  {row.state === "pending" || row.state === "cancelled" ? row.state : row.outcome}
                </td>
                {PURSES.map((purse) => (
                  <td key={purse} className="px-3 py-1.5 text-right font-mono tabular-nums">
                    {row.balances?.[purse] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
