"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { evidenceUrl, isActive, useCancelRun, useRun, useRuns } from "@/lib/client/use-certification-api";
import { environmentLabel } from "@/lib/client/environments";
import { CaseResultsTable } from "./case-results-table";
import { RunComparison } from "./run-comparison";
import { StatusBadge } from "@/components/ui/status-badge";
import { ProgressBar } from "@/components/ui/progress-bar";
import { VerdictCountsLine } from "./verdict-badge";
import { useNow } from "@/lib/client/use-now";
import type { RunWait } from "@/lib/shared/certification-contract";

const WAIT_LABELS: Record<RunWait["what"], string> = { token_expiry: "waiting for the token to expire" };

/** "AUTH-03: waiting for the token to expire — about 42 s left", counting down between polls. */
function WaitNote({ wait }: { wait: RunWait }) {
  const now = useNow();
  const left = now ? Math.max(0, Math.ceil((Date.parse(wait.until) - now) / 1000)) : null;
  return (
    <span data-testid="run-wait">
      · {wait.case_id}: {WAIT_LABELS[wait.what]}
      {left === null ? "" : left > 0 ? ` — about ${left} s left` : " — any moment now"}
    </span>
  );
}

export function RunDetail({
  id,
  baselineId,
  onBaseline,
}: {
  id: string;
  baselineId: string | null;
  onBaseline: (id: string | null) => void;
}) {
  const { data: run, error } = useRun(id);
  const { data: list, mutate: refreshList } = useRuns();
  const titleId = useId();
  const cancel = useCancelRun(id);
  const [confirmingCancel, setConfirmingCancel] = useState(false);

  if (error) {
    return (
      <Alert tone="danger" title="This run cannot be shown" role="alert" className="[overflow-wrap:anywhere]">
        {error.message}
      </Alert>
    );
  }
  if (!run) return <Skeleton className="h-64 w-full rounded-xl" />;

  const active = isActive(run.status);
  return (
    <Panel
      className="min-w-0"
      titleId={titleId}
      title={
        <span className="flex flex-wrap items-center gap-2">
          Run on {environmentLabel(run.environment.name)} <StatusBadge status={run.status} />
        </span>
      }
      description={
        <>
          Started {new Date(run.started_at).toLocaleString()} by {run.operator} as {run.client_id}
          {run.allow_production_gift ? " · production Gift Balance Inquiry allowed" : ""}
          {" · "}
          <span className="font-mono text-xs">{run.id}</span>
        </>
      }
      actions={
        run.evidence_ready ? (
          <a href={evidenceUrl(run.id)} download className={buttonClasses("primary")}>
            Download evidence (.zip)
          </a>
        ) : active ? (
          <Button variant="danger" busy={cancel.isMutating} onClick={() => setConfirmingCancel(true)}>
            Cancel run
          </Button>
        ) : null
      }
    >
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <div className="grid gap-1.5">
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="flex items-center gap-2 text-body" aria-live="polite">
              {active ? <Spinner /> : null}
              <span data-testid="run-progress">
                {run.done} of {run.total} cases {active ? "done" : "run"}
              </span>
              {active && run.waiting ? <WaitNote wait={run.waiting} /> : null}
            </span>
            <VerdictCountsLine summary={run.summary} />
          </div>
          <ProgressBar
            label="Run progress"
            value={run.done}
            max={run.total}
            size="sm"
            tone={run.summary.fail > 0 ? "danger" : "accent"}
          />
        </div>
        {run.status === "interrupted" ? (
          <Alert tone="warning" title="Interrupted">
            The server running it stopped before the end. A run is never resumed (its Gift Balance Inquiry
            cases recorded transactions); start a new one. The evidence of what ran is signed.
          </Alert>
        ) : null}
        {cancel.error ? (
          <Alert tone="danger" title="The run was not cancelled" role="alert">
            {cancel.error.message}
          </Alert>
        ) : null}
        {run.status === "cancelled" ? (
          <Alert tone="warning" title="Cancelled">
            Stopped on request after {run.done} of {run.total} cases
            {run.done < run.total ? `; the other ${run.total - run.done} did not run` : ""}. A case whose wait
            was cut short is not applicable. The evidence of what ran is signed.
          </Alert>
        ) : null}
        <CaseResultsTable run={run} />
        {!active ? (
          <div className="border-t border-default pt-4">
            <RunComparison
              current={run.id}
              verdicts={run.results.map((result) => ({ id: result.id, verdict: result.verdict }))}
              runs={(list?.runs ?? []).filter((item) => !isActive(item.status))}
              baselineId={baselineId}
              onBaseline={onBaseline}
            />
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirmingCancel}
        title="Cancel this certification run?"
        confirmLabel="Cancel the run"
        onConfirm={() => {
          setConfirmingCancel(false);
          void cancel
            .trigger({})
            .then(() => refreshList())
            .catch(() => undefined);
        }}
        onCancel={() => setConfirmingCancel(false)}
      >
        The case under way finishes; the remaining cases do not run. The run ends cancelled, and its evidence
        bundle signs the cases that ran.
      </ConfirmDialog>
    </Panel>
  );
}
