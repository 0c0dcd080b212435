"use client";

import type { ReactNode } from "react";
import { onDemand } from "@/lib/client/on-demand";
import { Skeleton } from "@/components/ui/skeleton";
import { OutlineIcon } from "@/components/ui/outline-icon";
import type { InquiryRun } from "./use-inquiry-run";
import { Panel } from "@/components/ui/panel";

// The result (exchange view, code export, status explanation) is in no first load: it is fetched when the page
// is idle, and a result that comes before it shows the running placeholder until it is there.
const resultModule = onDemand(() => import("./inquiry-result"));

function EmptyResult() {
  return (
    <div className="flex min-h-[22rem] flex-col items-center justify-center rounded-xl border border-dashed border-field px-6 text-center">
      <OutlineIcon path="M2.25 8.25h19.5M2.25 9h19.5m-16.5 5.25h6m-6 2.25h3m-3.75 3h15a2.25 2.25 0 0 0 2.25-2.25V6.75A2.25 2.25 0 0 0 19.5 4.5h-15a2.25 2.25 0 0 0-2.25 2.25v10.5A2.25 2.25 0 0 0 4.5 19.5Z" />
      <p className="mt-3 font-medium text-fg">No result yet</p>
      <p className="mt-1 max-w-sm text-sm text-muted">
        Enter a card number and run an inquiry. The result appears here with the exact request and response.
      </p>
    </div>
  );
}

function RunningResult({ label }: { label: string }) {
  return (
    <Panel as="div" className="min-h-[22rem]" bodyClassName="p-5" aria-busy="true">
      <span className="sr-only" role="status">
        {label}
      </span>
      <Skeleton className="h-5 w-56" />
      <Skeleton className="mt-6 h-4 w-24" />
      <Skeleton className="mt-2 h-10 w-40" />
      <Skeleton className="mt-6 h-4 w-full" />
      <Skeleton className="mt-3 h-4 w-5/6" />
      <Skeleton className="mt-3 h-4 w-4/6" />
    </Panel>
  );
}

/**
 * The right-hand side of /inquiry: a notice, the error (its alert is given), and then the running
 * placeholder, the result, or the empty state.
 */
export function InquiryResultArea({
  running,
  run,
  notice,
  errorAlert,
}: {
  running: boolean;
  run: InquiryRun | null;
  notice: ReactNode;
  /** The last run's error, shown instead of a result; null when there is none. */
  errorAlert: ReactNode;
}) {
  const result = resultModule.useModule();
  return (
    <div className="min-w-0 space-y-4" aria-busy={running}>
      {notice}
      {running ? null : errorAlert}
      {running ? (
        <RunningResult label="Running…" />
      ) : run ? (
        result ? (
          <result.InquiryResult
            key={run.exchange.id}
            exchange={run.exchange}
            fullCardNumber={run.typedCard}
          />
        ) : (
          <RunningResult label="Showing the result…" />
        )
      ) : errorAlert ? null : (
        <EmptyResult />
      )}
    </div>
  );
}
