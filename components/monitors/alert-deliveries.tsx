"use client";

import { useEffect } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useMonitorDeliveries, useRedeliver, useSendTestAlert } from "@/lib/client/use-monitors-api";
import type { DeliveryView } from "@/lib/shared/monitors-api";

/** Deliveries shown on a card; the API answers up to 50. */
const SHOWN = 5;

const STATE_TONES: Record<DeliveryView["state"], BadgeTone> = {
  pending: "warning",
  delivered: "success",
  failed: "danger",
};

const TYPE_LABELS: Record<DeliveryView["type"], string> = {
  "monitor.failing": "Failing",
  "monitor.recovered": "Recovered",
  "monitor.test": "Test",
};

function lastAttempt(delivery: DeliveryView): string {
  const last = delivery.attempts.at(-1);
  if (!last) return "not tried yet";
  const outcome = last.error ?? `HTTP ${last.status}`;
  return `${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? "" : "s"}, last ${new Date(last.at).toLocaleTimeString()}: ${outcome} (${last.ms} ms)`;
}

function DeliveryItem({
  monitorId,
  delivery,
  canManage,
}: {
  monitorId: string;
  delivery: DeliveryView;
  canManage: boolean;
}) {
  const redeliver = useRedeliver(monitorId);
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-2 rounded-lg p-2 ring-1 ring-neutral ring-inset"
      data-testid="delivery"
      data-state={delivery.state}
    >
      <div className="grid min-w-0 gap-0.5">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <Badge tone={STATE_TONES[delivery.state]}>{delivery.state}</Badge>
          <span className="font-medium text-fg">{TYPE_LABELS[delivery.type]}</span>
          <span className="text-muted">{new Date(delivery.created_at).toLocaleString()}</span>
        </div>
        <p className="text-xs text-body [overflow-wrap:anywhere]">{lastAttempt(delivery)}</p>
        {redeliver.error ? <p className="text-xs text-danger">{redeliver.error.message}</p> : null}
      </div>
      {canManage && delivery.state !== "pending" ? (
        <Button
          size="sm"
          busy={redeliver.isMutating}
          onClick={() => void redeliver.trigger({ delivery: delivery.id }).catch(() => undefined)}
        >
          Redeliver
        </Button>
      ) : null}
    </li>
  );
}

/** A monitor's last alert deliveries with their state and attempts; its owner (or an admin) redelivers or tests. */
export function AlertDeliveries({
  monitorId,
  canManage,
  alertsOn,
  changed,
}: {
  monitorId: string;
  canManage: boolean;
  alertsOn: boolean;
  /** Changes when the monitor's last run or state does: an alert may just have been queued. */
  changed: string;
}) {
  const { data, mutate } = useMonitorDeliveries(monitorId);
  useEffect(() => {
    void mutate();
  }, [changed, mutate]);
  const test = useSendTestAlert(monitorId);
  const deliveries = data?.deliveries ?? [];
  if (!alertsOn && deliveries.length === 0) return null;
  return (
    <section className="grid gap-2" aria-label="Alert deliveries">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold text-fg">Alert deliveries</h3>
        {canManage && alertsOn ? (
          <Button
            size="sm"
            busy={test.isMutating}
            onClick={() => void test.trigger({}).catch(() => undefined)}
          >
            Send a test alert
          </Button>
        ) : null}
        {test.error ? (
          <span className="text-sm text-danger" role="alert">
            {test.error.message}
          </span>
        ) : null}
      </div>
      {deliveries.length === 0 ? (
        <p className="text-sm text-muted">No alert sent yet.</p>
      ) : (
        <ul className="grid gap-1.5">
          {deliveries.slice(0, SHOWN).map((delivery) => (
            <DeliveryItem key={delivery.id} monitorId={monitorId} delivery={delivery} canManage={canManage} />
          ))}
        </ul>
      )}
    </section>
  );
}
