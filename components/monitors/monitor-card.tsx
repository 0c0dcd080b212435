"use client";

import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { environmentLabel } from "@/lib/client/environments";
import {
  useDeleteMonitor,
  useMonitor,
  useRunMonitorNow,
  useUpdateMonitor,
} from "@/lib/client/use-monitors-api";
import type { MonitorView } from "@/lib/shared/monitors-api";
import { casesThatBroke, MAX_EVERY_MINUTES } from "@/lib/shared/monitor-rules";
import { AlertDeliveries } from "./alert-deliveries";
import { RunStrip } from "./run-strip";

const STATE_TONES: Record<MonitorView["state"], BadgeTone> = {
  passing: "success",
  failing: "danger",
  unknown: "neutral",
};

function DeliveryNotice({ monitor }: { monitor: MonitorView }) {
  const problem = monitor.delivery_problem;
  if (!problem) return null;
  const event =
    problem.type === "monitor.failing"
      ? "failing"
      : problem.type === "monitor.recovered"
        ? "recovered"
        : "test";
  return (
    <Alert tone={problem.state === "failed" ? "danger" : "warning"} title="Alert not delivered" role="status">
      The {event} alert could not be posted to the webhook after {problem.attempts} attempt
      {problem.attempts === 1 ? "" : "s"}
      {problem.state === "failed"
        ? "; the console gave up after an hour."
        : problem.next_attempt_at
          ? `; next attempt ${new Date(problem.next_attempt_at).toLocaleTimeString()}.`
          : "."}
      {problem.last_error ? ` ${problem.last_error}` : ""}
    </Alert>
  );
}

/** The strip of recent runs and, only while the monitor is failing, what changed between its last good run and the first bad one. */
function BrokenCases({ id, running, failing }: { id: string; running: boolean; failing: boolean }) {
  const { data } = useMonitor(id, running);
  const runs = data?.runs ?? [];
  // A recovered monitor's old break is history, not news: the strip still shows it.
  const broke = failing && data?.monitor.state === "failing" ? casesThatBroke(runs) : null;
  return (
    <div className="grid gap-2">
      <RunStrip runs={runs} />
      {broke ? (
        <p className="text-sm text-body" data-testid="cases-changed">
          Changed between the last good run and the first bad one:{" "}
          <span className="font-mono">
            {broke.cases.length > 0 ? broke.cases.join(", ") : "no case (the run did not finish)"}
          </span>
        </p>
      ) : null}
    </div>
  );
}

function EveryEditor({ monitor, onDone }: { monitor: MonitorView; onDone: () => void }) {
  const id = useId();
  const [every, setEvery] = useState(String(monitor.every_minutes));
  const update = useUpdateMonitor(monitor.id);
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void update
          .trigger({ every_minutes: Number(every) })
          .then(onDone)
          .catch(() => undefined);
      }}
    >
      <Field
        id={`${id}-every`}
        label="Every (minutes)"
        type="number"
        min={1}
        max={MAX_EVERY_MINUTES}
        value={every}
        onChange={(e) => setEvery(e.target.value)}
      />
      <Button type="submit" variant="primary" busy={update.isMutating}>
        Save
      </Button>
      {update.error ? <p className="text-sm text-danger">{update.error.message}</p> : null}
    </form>
  );
}

function MonitorActions({ monitor, onEdit }: { monitor: MonitorView; onEdit: () => void }) {
  const runNow = useRunMonitorNow(monitor.id);
  const update = useUpdateMonitor(monitor.id);
  const remove = useDeleteMonitor(monitor.id);
  const [confirming, setConfirming] = useState(false);
  const error = runNow.error ?? update.error ?? remove.error;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          busy={runNow.isMutating}
          disabled={monitor.running}
          onClick={() => void runNow.trigger({}).catch(() => undefined)}
        >
          Run now
        </Button>
        <Button
          size="sm"
          busy={update.isMutating}
          onClick={() => void update.trigger({ paused: !monitor.paused }).catch(() => undefined)}
        >
          {monitor.paused ? "Resume" : "Pause"}
        </Button>
        <Button size="sm" onClick={onEdit}>
          Edit
        </Button>
        <Button size="sm" variant="danger" busy={remove.isMutating} onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </div>
      {error ? (
        <p className="text-sm text-danger" role="alert">
          {error.message}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Delete monitor ${monitor.name}?`}
        confirmLabel="Delete"
        onConfirm={() => {
          setConfirming(false);
          void remove.trigger({}).catch(() => undefined);
        }}
        onCancel={() => setConfirming(false)}
      >
        Its schedule and run list go; the certification runs stay on the Certification page.
      </ConfirmDialog>
    </div>
  );
}

function Facts({ monitor }: { monitor: MonitorView }) {
  return (
    <>
      {environmentLabel(monitor.environment)} · every {monitor.every_minutes} min ·{" "}
      {monitor.alert_after_failures > 1
        ? `alerts after ${monitor.alert_after_failures} failing runs in a row · `
        : ""}
      {monitor.paused ? "paused" : `next run ${new Date(monitor.next_run_at).toLocaleString()}`}
      {monitor.cases ? ` · ${monitor.cases.join(", ")}` : " · every case"}
      {monitor.allow_production_gift ? " · production Gift Balance Inquiry allowed" : ""}
      {` · created by ${monitor.created_by}`}
      {monitor.can_manage ? "" : " (read only)"}
    </>
  );
}

/**
 * One monitor: state, schedule, its recent runs, what broke (while failing), its alert deliveries, and for its
 * owner or an admin the actions; everyone else sees it read-only.
 */
export function MonitorCard({
  monitor,
  canWrite,
  alertsOn,
}: {
  monitor: MonitorView;
  canWrite: boolean;
  alertsOn: boolean;
}) {
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const manage = canWrite && monitor.can_manage;
  return (
    <Panel
      titleId={titleId}
      className="min-w-0"
      title={
        <span className="flex flex-wrap items-center gap-2 [overflow-wrap:anywhere]">
          {monitor.name}
          <Badge tone={STATE_TONES[monitor.state]}>{monitor.state}</Badge>
          {monitor.paused ? <Badge tone="warning">paused</Badge> : null}
          {monitor.running ? <Badge tone="info">running</Badge> : null}
        </span>
      }
      description={<Facts monitor={monitor} />}
    >
      <div className="grid gap-3" data-testid="monitor" data-state={monitor.state}>
        <BrokenCases id={monitor.id} running={monitor.running} failing={monitor.state === "failing"} />
        <DeliveryNotice monitor={monitor} />
        <AlertDeliveries
          monitorId={monitor.id}
          canManage={manage}
          alertsOn={alertsOn}
          changed={`${monitor.state} ${monitor.running} ${monitor.last_run?.id ?? ""}`}
        />
        {manage ? <MonitorActions monitor={monitor} onEdit={() => setEditing(!editing)} /> : null}
        {manage && editing ? <EveryEditor monitor={monitor} onDone={() => setEditing(false)} /> : null}
      </div>
    </Panel>
  );
}
