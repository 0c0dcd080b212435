"use client";

import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { StatusBadge } from "@/components/ui/status-badge";
import { TableHead } from "@/components/ui/table-head";
import { supportKeys, useBatchList } from "@/lib/client/use-support-api";
import type { SupportBatchListItem } from "@/lib/shared/support-contract";

const COLUMNS = [
  { key: "started", label: "Started" },
  { key: "status", label: "Status" },
  { key: "progress", label: "Progress" },
  { key: "outcomes", label: "Found · not found · failed" },
  { key: "reason", label: "Reason" },
];

/** The agent's batches kept on the server (24 hours), newest first, so leaving a batch's page loses nothing. */
export function BatchList({ showOwner }: { showOwner: boolean }) {
  const { data, error } = useBatchList();
  const columns = showOwner ? [...COLUMNS, { key: "user", label: "Started by" }] : COLUMNS;
  return (
    <Panel
      title="Your batches"
      titleId="support-batches-title"
      description={
        showOwner
          ? "Every batch of the last 24 hours (you are an administrator), newest first."
          : "Your batches of the last 24 hours, newest first."
      }
      bodyClassName="px-0 py-0"
    >
      {error ? (
        <div className="p-4">
          <Alert tone="danger" role="alert" title="The batches cannot be listed">
            {error.message}
          </Alert>
        </div>
      ) : !data ? (
        <Skeleton className="m-4 h-16" />
      ) : data.batches.length === 0 ? (
        <p className="p-4 text-sm text-muted">No batches in the last 24 hours.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-labelledby="support-batches-title">
            <TableHead columns={columns} className="bg-inset text-xs text-muted" cellClassName="px-4 py-2" />
            <tbody className="divide-y divide-default">
              {data.batches.map((batch) => (
                <BatchRow key={batch.id} batch={batch} showOwner={showOwner} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

function BatchRow({ batch, showOwner }: { batch: SupportBatchListItem; showOwner: boolean }) {
  return (
    <tr>
      <td className="px-4 py-2 whitespace-nowrap">
        <Link className="text-accent underline" href={supportKeys.batchPage(batch.id)}>
          {new Date(batch.created_at).toLocaleString()}
        </Link>
      </td>
      <td className="px-4 py-2">
        <StatusBadge status={batch.status} />
      </td>
      <td className="px-4 py-2 whitespace-nowrap tabular-nums">
        {batch.done} of {batch.total} cards
        {batch.in_flight > 0 && batch.status === "cancelled" ? ` (${batch.in_flight} still answering)` : ""}
      </td>
      <td className="px-4 py-2 whitespace-nowrap tabular-nums" data-testid="batch-outcomes">
        <BatchOutcomes batch={batch} />
      </td>
      <td className="max-w-[16rem] truncate px-4 py-2 text-muted">{batch.reason ?? "—"}</td>
      {showOwner ? <td className="px-4 py-2">{batch.user_id}</td> : null}
    </tr>
  );
}

/** What the agent checks first: how many had no such card and how many got no usable answer. */
function BatchOutcomes({ batch }: { batch: SupportBatchListItem }) {
  return (
    <>
      {batch.found} found · {batch.not_found} not found ·{" "}
      <span className={batch.errors > 0 ? "font-semibold text-danger" : undefined}>
        {batch.errors} failed
      </span>
    </>
  );
}
