"use client";

import { Alert } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/skeleton";
import { allowsGlobal, useAllows, useMe } from "@/components/team/use-me";
import { useMonitors } from "@/lib/client/use-monitors-api";
import type { MonitorListResponse } from "@/lib/shared/monitors-api";
import { CreateMonitorForm } from "./create-monitor-form";
import { MonitorCard } from "./monitor-card";

/** Where alerts go: the receiver's host (its path may hold a token, so never more), or that they are off. */
function AlertTarget({ alerts }: { alerts: MonitorListResponse["alerts"] }) {
  return (
    <p className="text-sm text-body" data-testid="alert-target">
      {alerts.host ? (
        <>
          Alerts go to <span className="font-mono font-medium text-fg">{alerts.host}</span>
          {alerts.signed ? " (signed, Standard Webhooks)." : " (unsigned: ALERT_WEBHOOK_SECRET is not set)."}
        </>
      ) : (
        "Alerts are off: monitors run and show their state here, but no alert is sent (ALERT_WEBHOOK_URL is not set)."
      )}
    </p>
  );
}

export function MonitorsView() {
  const allows = useAllows();
  const { data: me } = useMe();
  const canWrite = allowsGlobal(allows, "monitor_write");
  const admin = me?.user?.roles.includes("admin") ?? false;
  const { data, error } = useMonitors();
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      {canWrite ? <CreateMonitorForm admin={admin} /> : null}
      {error ? (
        <Alert tone="danger" title="The monitors cannot be shown" role="alert">
          {error.message}
        </Alert>
      ) : !data ? (
        <Skeleton className="h-40 w-full rounded-xl" />
      ) : (
        <>
          <AlertTarget alerts={data.alerts} />
          {data.monitors.length === 0 ? (
            <p className="text-sm text-muted">No monitor yet.</p>
          ) : (
            <ul className="grid gap-4" aria-label="Monitors">
              {data.monitors.map((monitor) => (
                <li key={monitor.id}>
                  <MonitorCard monitor={monitor} canWrite={canWrite} alertsOn={data.alerts.host !== null} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
