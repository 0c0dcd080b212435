"use client";

import Link from "next/link";
import { operationLabel } from "@/lib/shared/operations";
import { diffRunsHref } from "@/lib/client/compare-links";
import { environmentLabel } from "@/lib/client/environments";
import type { HistoryRun } from "@/lib/client/history-store";
import { statusLine } from "@/lib/client/http-status";
import { Button, buttonClasses } from "@/components/ui/button";
import { HistoryDialog } from "./history-dialog";
import { ReplayForm } from "./replay-form";
import { RunDetail } from "./run-detail";
import type { RunDialogState } from "./use-run-dialog";

function canReuseRequestId(run: HistoryRun): boolean {
  return run.exchange.operation === "gift_balance_inquiry" && Boolean(run.exchange.request_id);
}

/** One run in a dialog: its details, or its replay; "not found" for a run the URL names that is not here. */
export function RunDialog({
  shown,
  run,
  runs,
  onClose,
  onOpenRun,
  onReplay,
}: {
  shown: RunDialogState;
  run: HistoryRun | null;
  runs: readonly HistoryRun[] | undefined;
  onClose: () => void;
  onOpenRun: (id: string) => void;
  onReplay: (id: string, reuseRequestId: boolean) => void;
}) {
  const replay = shown?.kind === "replay" ? shown : null;
  // Diff with the newest other run of the same operation (chosen on Compare when there is none).
  const diffPartner = run
    ? runs?.find((other) => other.id !== run.id && other.exchange.operation === run.exchange.operation)
    : undefined;
  return (
    <HistoryDialog
      open={shown !== null && (run !== null || Boolean(runs))}
      title={
        run
          ? `${replay ? "Replay " : ""}${operationLabel(run.exchange.operation)}${
              replay?.reuseRequestId ? " with the same Request Id" : ""
            }`
          : "Run not found"
      }
      subtitle={
        run
          ? `${statusLine(run.exchange.response.status)} · ${environmentLabel(run.exchange.environment)}${
              run.card ? ` · ${run.card.masked}` : ""
            }`
          : undefined
      }
      onClose={onClose}
      footer={
        run && shown?.kind === "open" ? (
          <>
            <Link
              href={diffRunsHref(diffPartner?.id ?? "", run.id)}
              className={buttonClasses("secondary", "md")}
            >
              Diff with another run
            </Link>
            <Button onClick={() => onReplay(run.id, false)}>Replay</Button>
            {canReuseRequestId(run) ? (
              <Button onClick={() => onReplay(run.id, true)}>Replay with the same Request Id</Button>
            ) : null}
          </>
        ) : undefined
      }
    >
      {run ? (
        replay ? (
          <ReplayForm
            key={`${run.id}-${replay.reuseRequestId}`}
            run={run}
            reuseRequestId={replay.reuseRequestId}
            onOpenRun={onOpenRun}
          />
        ) : (
          <RunDetail run={run} />
        )
      ) : (
        <p className="text-sm text-body">
          This run is not in this browser&rsquo;s history: it may have been deleted, cleared, or kept in
          another browser.
        </p>
      )}
    </HistoryDialog>
  );
}
