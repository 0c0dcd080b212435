/** The catalogue's entries for monitors: certification on a schedule (DESIGN.md §13). */
import { createMonitorSchema, updateMonitorSchema } from "@/lib/shared/monitors-api";
import { allowGlobal } from "@/lib/server/http/access";
import type { RouteDeclaration } from "@/lib/server/http/declaration";
import {
  monitorDeletedSchema,
  monitorDetailSchema,
  monitorListSchema,
  monitorRunResultSchema,
  monitorSchema,
} from "../console-schemas";

const monitorId = { id: { description: "The monitor's id (the `id` of the 201 that created it)." } };
const NO_MONITOR = { not_found: "No such monitor." } as const;
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
      description: "`allow_production_gift` only an admin may set.",
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
      summary: "Pause, resume or change a monitor",
      access: allowGlobal("monitor_write"),
      parameters: monitorId,
      body: { schema: updateMonitorSchema, example: { paused: true } },
      answers: { 200: { description: "The monitor as changed.", schema: monitorSchema } },
      errors: {
        ...NO_MONITOR,
        environment_unavailable: "An environment the console cannot certify.",
        forbidden_by_role: "`allow_production_gift` set by someone who is not an admin.",
      },
    },
    DELETE: {
      operationId: "deleteMonitor",
      summary: "Delete a monitor and its run list (a run under way ends on its own)",
      access: allowGlobal("monitor_write"),
      parameters: monitorId,
      answers: { 200: { description: "Deleted.", schema: monitorDeletedSchema } },
      errors: NO_MONITOR,
    },
  },
  "/api/monitors/[id]/run": {
    POST: {
      operationId: "runMonitorNow",
      summary: "Run a monitor now; its schedule does not move",
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
        ...NO_MONITOR,
        run_in_progress: "A run of this monitor is under way.",
        rate_limited: "The caller started CERTIFICATION_RUNS_PER_HOUR runs in its environment this hour.",
      },
    },
  },
} as const satisfies Record<string, Record<string, RouteDeclaration>>;
