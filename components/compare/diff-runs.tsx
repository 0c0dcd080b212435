"use client";

import Link from "next/link";
import { useId, useMemo, useState } from "react";
import type { HistoryRun } from "@/lib/client/history-store";
import { runLabel } from "@/lib/client/history-filter";
import { useHistoryRuns } from "@/lib/client/use-history";
import { diffRecords } from "@/lib/client/record-diff";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { cx } from "@/components/ui/class-names";
import { SelectField } from "@/components/ui/select-field";
import { Skeleton } from "@/components/ui/skeleton";
import { HistoryReadError } from "@/components/history/history-read-error";
import { RecordDiffView } from "./record-diff-view";
import { Panel } from "@/components/ui/panel";

const timeFormat = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});
const dateFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });

/** "10:00:05 · Gift Balance Inquiry · 600649******0001 · 201 · embedded"; the date only when not today. */
function optionLabel(run: HistoryRun, today: string): string {
  const started = new Date(run.started_at);
  const day = dateFormat.format(started);
  return `${day === today ? "" : `${day} `}${timeFormat.format(started)} · ${runLabel(run)}`;
}

/**
 * The default pair when none is chosen: the newest run (B) and the run before it of the same operation and
 * card (A), else simply the two newest. Lookups by Request Id are left out when there are other runs: "Run
 * both" ends with one, and it checks a run rather than being one to compare.
 */
export function defaultPair(allRuns: readonly HistoryRun[]): [string, string] | null {
  const comparable = allRuns.filter((run) => run.exchange.operation !== "transaction_lookup");
  const runs = comparable.length >= 2 ? comparable : allRuns;
  const [newest, ...older] = runs;
  if (!newest || older.length === 0) return null;
  const sameKind = older.find(
    (run) =>
      run.exchange.operation === newest.exchange.operation &&
      (run.card?.masked ?? null) === (newest.card?.masked ?? null),
  );
  return [(sameKind ?? older[0]!).id, newest.id];
}

function RunSelect({
  id,
  label,
  value,
  runs,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  runs: readonly HistoryRun[];
  onChange: (id: string) => void;
}) {
  const today = dateFormat.format(new Date());
  return (
    <SelectField id={id} label={label} value={value} onChange={onChange} selectClassName="font-mono text-xs">
      {value === "" ? <option value="">Choose a run…</option> : null}
      {runs.map((run) => (
        <option key={run.id} value={run.id}>
          {optionLabel(run, today)}
        </option>
      ))}
    </SelectField>
  );
}

export function DiffRuns({
  a,
  b,
  onChange,
}: {
  a: string | null;
  b: string | null;
  onChange: (a: string | null, b: string | null) => void;
}) {
  const ids = { a: useId(), b: useId(), volatile: useId(), unchanged: useId(), diff: useId() };
  const { data: runs, error, isLoading } = useHistoryRuns();
  const [showVolatile, setShowVolatile] = useState(false);
  const [showUnchanged, setShowUnchanged] = useState(false);

  const pair = useMemo<[string, string] | null>(() => {
    if (!runs) return null;
    if (a || b) return [a ?? "", b ?? ""];
    return defaultPair(runs);
  }, [runs, a, b]);
  const runA = runs?.find((run) => run.id === pair?.[0]) ?? null;
  const runB = runs?.find((run) => run.id === pair?.[1]) ?? null;
  const diff = useMemo(
    () => (runA && runB ? diffRecords(runA.exchange, runB.exchange, { showVolatile, showUnchanged }) : null),
    [runA, runB, showVolatile, showUnchanged],
  );

  if (error) {
    return <HistoryReadError error={error} />;
  }
  if (isLoading || !runs) {
    return (
      <div className="space-y-4" aria-busy="true">
        <Skeleton className="h-36 w-full rounded-xl" />
        <Skeleton className="h-64 w-full rounded-xl" />
      </div>
    );
  }
  if (runs.length < 2) {
    return (
      <div className="rounded-xl border border-dashed border-field px-6 py-12 text-center">
        <h2 className="text-base font-semibold text-fg">Two runs are needed</h2>
        <p className="mx-auto mt-1 max-w-md text-sm text-muted">
          History has {runs.length === 0 ? "no runs" : "one run"} in this browser. Use <em>Run both</em>, the{" "}
          <Link href="/inquiry" className="font-medium text-accent underline">
            inquiry page
          </Link>{" "}
          or{" "}
          <Link href="/history" className="font-medium text-accent underline">
            import a history file
          </Link>
          , then compare any two runs here.
        </p>
      </div>
    );
  }

  const missingChoice = (pair?.[0] && !runA) || (pair?.[1] && !runB);
  return (
    <div className="space-y-4">
      <Panel aria-label="Runs to compare" bodyClassName="p-5">
        <div className="grid items-end gap-3 md:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)]">
          <RunSelect
            id={ids.a}
            label="A (before)"
            value={runA?.id ?? ""}
            runs={runs}
            onChange={(id) => onChange(id, runB?.id ?? null)}
          />
          <Button
            aria-label="Swap A and B"
            title="Swap A and B"
            onClick={() => onChange(runB?.id ?? null, runA?.id ?? null)}
            disabled={!runA || !runB}
            className="justify-self-center"
          >
            <span aria-hidden="true">⇄</span>
          </Button>
          <RunSelect
            id={ids.b}
            label="B (after)"
            value={runB?.id ?? ""}
            runs={runs}
            onChange={(id) => onChange(runA?.id ?? null, id)}
          />
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-fg">
          <CheckboxField id={ids.volatile} checked={showVolatile} onChange={setShowVolatile}>
            Show volatile fields
          </CheckboxField>
          <CheckboxField id={ids.unchanged} checked={showUnchanged} onChange={setShowUnchanged}>
            Show unchanged fields
          </CheckboxField>
          <span className="text-xs text-muted">
            Volatile: transaction_id, external_id, timestamps, system_time, request ids, durations, dates in
            headers.
          </span>
        </div>
      </Panel>

      {missingChoice ? (
        <Alert tone="warning" title="A chosen run is no longer in history">
          <p>It may have been deleted or the history cleared. Choose another run above.</p>
        </Alert>
      ) : null}

      {diff && runA && runB ? (
        <div aria-live="polite" aria-labelledby={ids.diff}>
          <p
            id={ids.diff}
            className={cx("mb-3 text-sm font-medium", diff.equivalent ? "text-success" : "text-fg")}
            data-testid="diff-verdict"
          >
            {runA.id === runB.id
              ? "A and B are the same run."
              : diff.equivalent
                ? "The responses match, apart from volatile fields."
                : `The runs differ in ${diff.meaningfulChanges} field${diff.meaningfulChanges === 1 ? "" : "s"}.`}
          </p>
          <RecordDiffView diff={diff} idPrefix={ids.diff} />
        </div>
      ) : null}
    </div>
  );
}
