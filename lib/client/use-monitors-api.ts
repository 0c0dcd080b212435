"use client";
/**
 * The monitors page's calls (docs/design.md §13): SWR keys from lib/client/api-keys.ts; the list and a monitor with
 * a run under way are polled; writes go through useSWRMutation and revalidate the list.
 */
import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import { apiKeys, monitorDeliveriesKey, monitorKey, TEST_ALERT_URL } from "@/lib/client/api-keys";
import { getJson, sendJson, type ApiClientError } from "@/lib/client/fetcher";
import type {
  CreateMonitorInput,
  DeliveryListResponse,
  DeliveryView,
  TestAlertInput,
  MonitorDetailResponse,
  MonitorListResponse,
  MonitorRunResponse,
  MonitorView,
  UpdateMonitorInput,
} from "@/lib/shared/monitors-api";

/** Runs under way are followed every few seconds; otherwise the next scheduled run is far enough off. */
const POLL_MS = 3000;
const IDLE_POLL_MS = 30_000;

const busy = (monitor: MonitorView) => monitor.running || monitor.state === "unknown";

export function useMonitors() {
  return useSWR<MonitorListResponse, ApiClientError>(apiKeys.monitors, getJson, {
    refreshInterval: (data) => (data?.monitors.some(busy) ? POLL_MS : IDLE_POLL_MS),
  });
}

/** One monitor's runs: followed closely while the list says it runs, or its own answer shows a run not yet ended. */
export function useMonitor(id: string, running: boolean) {
  return useSWR<MonitorDetailResponse, ApiClientError>(monitorKey(id), getJson, {
    refreshInterval: (data) =>
      running ||
      !data ||
      data.monitor.state === "unknown" ||
      data.runs.some((run) => run.status === "running")
        ? POLL_MS
        : IDLE_POLL_MS,
  });
}

/** After a write: the list, and every monitor's detail, are read again. */
function useRevalidateMonitors() {
  const { mutate } = useSWRConfig();
  return () => mutate((key) => typeof key === "string" && key.startsWith(apiKeys.monitors));
}

export function useCreateMonitor() {
  const revalidate = useRevalidateMonitors();
  return useSWRMutation<MonitorView, ApiClientError, string, CreateMonitorInput>(
    apiKeys.monitors,
    sendJson<MonitorView, CreateMonitorInput>("POST"),
    { onSuccess: () => void revalidate() },
  );
}

export function useUpdateMonitor(id: string) {
  const revalidate = useRevalidateMonitors();
  return useSWRMutation<MonitorView, ApiClientError, string, UpdateMonitorInput>(
    monitorKey(id),
    sendJson<MonitorView, UpdateMonitorInput>("PATCH"),
    { onSuccess: () => void revalidate() },
  );
}

export function useRunMonitorNow(id: string) {
  const revalidate = useRevalidateMonitors();
  return useSWRMutation<MonitorRunResponse, ApiClientError, string, Record<string, never>>(
    monitorKey(id),
    (key: string, options: { arg: Record<string, never> }) =>
      sendJson<MonitorRunResponse, Record<string, never>>("POST")(`${key}/run`, options),
    { onSuccess: () => void revalidate() },
  );
}

export function useDeleteMonitor(id: string) {
  const revalidate = useRevalidateMonitors();
  return useSWRMutation<{ deleted: string }, ApiClientError, string, Record<string, never>>(
    monitorKey(id),
    sendJson<{ deleted: string }, Record<string, never>>("DELETE"),
    { onSuccess: () => void revalidate() },
  );
}

/** A monitor's last deliveries: followed closely while one is still being tried. */
export function useMonitorDeliveries(id: string) {
  return useSWR<DeliveryListResponse, ApiClientError>(monitorDeliveriesKey(id), getJson, {
    refreshInterval: (data) =>
      data?.deliveries.some((delivery) => delivery.state === "pending") ? POLL_MS : IDLE_POLL_MS,
  });
}

export function useRedeliver(id: string) {
  const revalidate = useRevalidateMonitors();
  return useSWRMutation<DeliveryView, ApiClientError, string, { delivery: string }>(
    monitorDeliveriesKey(id),
    (key: string, { arg }: { arg: { delivery: string } }) =>
      sendJson<DeliveryView, Record<string, never>>("POST")(
        `${key}/${encodeURIComponent(arg.delivery)}/redeliver`,
        { arg: {} },
      ),
    { onSuccess: () => void revalidate() },
  );
}

/** A test alert naming the monitor: it shows in that monitor's deliveries. */
export function useSendTestAlert(id: string) {
  const revalidate = useRevalidateMonitors();
  return useSWRMutation<DeliveryView, ApiClientError, string, Record<string, never>>(
    monitorDeliveriesKey(id),
    () => sendJson<DeliveryView, TestAlertInput>("POST")(TEST_ALERT_URL, { arg: { monitor_id: id } }),
    { onSuccess: () => void revalidate() },
  );
}
