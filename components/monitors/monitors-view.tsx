"use client";

import { Alert } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/skeleton";
import { allowsGlobal, useAllows, useMe } from "@/components/team/use-me";
import { useMonitors } from "@/lib/client/use-monitors-api";
import { CreateMonitorForm } from "./create-monitor-form";
import { MonitorCard } from "./monitor-card";

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
      ) : data.monitors.length === 0 ? (
        <p className="text-sm text-muted">No monitor yet.</p>
      ) : (
        <ul className="grid gap-4" aria-label="Monitors">
          {data.monitors.map((monitor) => (
            <li key={monitor.id}>
              <MonitorCard monitor={monitor} canWrite={canWrite} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
