"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { StatusBadge } from "@/components/ui/status-badge";
import type { SupportBatchProgress } from "@/lib/shared/support-contract";
import {
  batchActive,
  supportKeys,
  useBatchProgress,
  useCancelBatch,
  useRetryFailed,
} from "@/lib/client/use-support-api";
import { BatchProgress } from "./batch-progress";
import { BatchResults } from "./batch-results";

/** A batch's page: progress with counts, rate and time left, cancel, masked results and the CSV. */
export function BatchView({ id }: { id: string }) {
  const { data: batch, error } = useBatchProgress(id);
  const running = batch ? batch.status === "queued" || batch.status === "running" : true;

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
                {running ? <CancelBatch id={id} batch={batch} /> : null}
                {!batchActive(batch) && batch.errors > 0 ? (
                  <RetryFailed id={id} count={batch.errors} />
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
          <BatchResults id={id} running={batchActive(batch)} columns={batch.columns} />
        </div>
      )}
    </>
  );
}

/** Cancel asks first: the cards not yet sent will not run (those already sent still finish). */
function CancelBatch({ id, batch }: { id: string; batch: SupportBatchProgress }) {
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { trigger, isMutating } = useCancelBatch(id);
  const left = batch.in_flight;
  return (
    <>
      <Button variant="danger" busy={isMutating} onClick={() => setAsking(true)}>
        Cancel batch
      </Button>
      {failure ? (
        <span role="alert" className="text-sm text-danger">
          {failure}
        </span>
      ) : null}
      <ConfirmDialog
        open={asking}
        title="Cancel this batch?"
        confirmLabel="Cancel the batch"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          setFailure(null);
          // The mutation's answer becomes the progress (same key); polling goes on while cards are in flight.
          trigger().catch((error: Error) => setFailure(error.message));
        }}
      >
        <p>
          Up to {left} card{left === 1 ? "" : "s"} not yet looked up will not run. Cards already sent finish
          on their own; their results are kept.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** A new batch of just the failed cards, on its own page; the numbers never come to the browser. */
function RetryFailed({ id, count }: { id: string; count: number }) {
  const router = useRouter();
  const [failure, setFailure] = useState<string | null>(null);
  const { trigger, isMutating } = useRetryFailed(id);
  return (
    <>
      <Button
        busy={isMutating}
        onClick={() =>
          trigger()
            .then((next) => router.push(supportKeys.batchPage(next.id)))
            .catch((error: Error) => setFailure(error.message))
        }
      >
        Run the {count} failed card{count === 1 ? "" : "s"} again
      </Button>
      {failure ? (
        <span role="alert" className="text-sm text-danger">
          {failure}
        </span>
      ) : null}
    </>
  );
}
