/** The catalogue's entries for monitors: certification on a schedule (docs/design.md §13). */
import { createMonitorSchema, testAlertSchema, updateMonitorSchema } from "@/lib/shared/monitors-api";
import { allowGlobal } from "@/lib/server/http/access";
import type { RouteDeclaration } from "@/lib/server/http/declaration";
import {
  deliveryListSchema,
  deliverySchema,
  monitorDeletedSchema,
  monitorDetailSchema,
  monitorListSchema,
  monitorRunResultSchema,
  monitorSchema,
} from "./console-schemas";

const monitorId = { id: { description: "The monitor's id (the `id` of the 201 that created it)." } };
const NO_MONITOR = { not_found: "No such monitor." } as const;
/** Changes are its owner's or an admin's: to anyone else the monitor does not exist. */
const NOT_YOURS = {
  not_found: "No such monitor, or not yours (only its owner or an admin may change it).",
} as const;
export const monitorRoutes = {
  "/api/monitors": {
    GET: {
      operationId: "listMonitors",
      summary: "Every monitor with its state, next run and last run",
      access: allowGlobal("monitor_read"),
      answers: { 200: { description: "The monitors.", schema: monitorListSchema } },
    },
    POST: {
      operationId: "createMonitor",
      summary: "Create a monitor: certification on a schedule (its first run starts at once)",
      description:
        "`allow_production_gift` only an admin may set. The name is stored with card numbers masked. The creator owns the monitor: only they or an admin may change, run or delete it.",
      access: allowGlobal("monitor_write"),
      body: {
        schema: createMonitorSchema,
        example: { name: "Embedded, hourly", environment: "embedded", every_minutes: 60 },
      },
      answers: {
        201: {
          description: "Created.",
          schema: monitorSchema,
          headers: { Location: "`/api/monitors/{id}`." },
        },
      },
      errors: {
        environment_unavailable: "An environment the console cannot certify.",
        monitor_limit: "Past the console's or the user's cap of monitors.",
        forbidden_by_role: "`allow_production_gift` set by someone who is not an admin.",
      },
    },
  },
  "/api/monitors/[id]": {
    GET: {
      operationId: "getMonitor",
      summary: "One monitor and its last 50 runs",
      access: allowGlobal("monitor_read"),
      parameters: monitorId,
      answers: { 200: { description: "The monitor and its runs.", schema: monitorDetailSchema } },
      errors: NO_MONITOR,
    },
    PATCH: {
      operationId: "updateMonitor",
      summary: "Pause, resume or change a monitor (its owner or an admin)",
      access: allowGlobal("monitor_write"),
      parameters: monitorId,
      body: { schema: updateMonitorSchema, example: { paused: true } },
      answers: { 200: { description: "The monitor as changed.", schema: monitorSchema } },
      errors: {
        ...NOT_YOURS,
        environment_unavailable: "An environment the console cannot certify.",
        forbidden_by_role:
          "`allow_production_gift` set, or `every_minutes` lowered on a production monitor that has it, by someone who is not an admin.",
      },
    },
    DELETE: {
      operationId: "deleteMonitor",
      summary: "Delete a monitor and its run list (its owner or an admin; a run under way ends on its own)",
      access: allowGlobal("monitor_write"),
      parameters: monitorId,
      answers: { 200: { description: "Deleted.", schema: monitorDeletedSchema } },
      errors: NOT_YOURS,
    },
  },
  "/api/monitors/[id]/run": {
    POST: {
      operationId: "runMonitorNow",
      summary: "Run a monitor now (its owner or an admin); its schedule does not move",
      access: allowGlobal("monitor_write"),
      parameters: monitorId,
      answers: {
        202: {
          description: "Started: the certification run's id.",
          schema: monitorRunResultSchema,
          headers: { Location: "`/api/certification/runs/{id}`." },
        },
      },
      errors: {
        ...NOT_YOURS,
        run_in_progress: "A run of this monitor is under way.",
        rate_limited: "The caller started CERTIFICATION_RUNS_PER_HOUR runs in its environment this hour.",
      },
    },
  },
  "/api/monitors/[id]/deliveries": {
    GET: {
      operationId: "listMonitorDeliveries",
      summary: "A monitor's last 50 alert deliveries: each attempt, and the state",
      access: allowGlobal("monitor_read"),
      parameters: monitorId,
      answers: { 200: { description: "Newest first.", schema: deliveryListSchema } },
      errors: NO_MONITOR,
    },
  },
  "/api/monitors/[id]/deliveries/[delivery_id]/redeliver": {
    POST: {
      operationId: "redeliverMonitorAlert",
      summary: "Send an alert again, with the same webhook-id (its monitor's owner or an admin)",
      description:
        "The delivery is pending at once and retried for an hour again; one whose attempt is under way is left to it.",
      access: allowGlobal("monitor_write"),
      parameters: {
        ...monitorId,
        delivery_id: { description: "The delivery's id (its alert's `webhook-id`)." },
      },
      answers: { 202: { description: "Queued again.", schema: deliverySchema } },
      errors: { not_found: "No such monitor of yours, or no such delivery of it." },
    },
  },
  "/api/monitors/test-alert": {
    POST: {
      operationId: "sendTestAlert",
      summary: "Send a monitor.test alert to the configured receiver",
      description:
        "Naming a monitor (yours, or any for an admin) shows the delivery in its deliveries; without one it tests the receiver alone.",
      access: allowGlobal("monitor_write"),
      body: { schema: testAlertSchema, example: {} },
      answers: { 202: { description: "Queued.", schema: deliverySchema } },
      errors: {
        ...NOT_YOURS,
        alerts_off: "ALERT_WEBHOOK_URL is not set: alerts are off.",
      },
    },
  },
} as const satisfies Record<string, Record<string, RouteDeclaration>>;
