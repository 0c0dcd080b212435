/**
 * The alert a monitor sends (docs/design.md §13): its JSON, a one-line `text` a Slack or Teams incoming webhook shows
 * as is, and the `X-Console-Signature` header (HMAC-SHA-256 of the exact body) receivers check.
 */
import "server-only";
import { createHmac } from "node:crypto";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { MonitorAlert } from "@/lib/shared/monitors-api";
import type { AlertEvent } from "./schedule";

export interface AlertInput {
  event: AlertEvent;
  monitor: { id: string; name: string; environment: EnvironmentName };
  run: { id: string; status: string; passed: number; failed: number; failed_cases: string[] };
  /** The console's public origin: the run's page is linked absolutely. */
  publicOrigin: string;
}

export function alertBody({ event, monitor, run, publicOrigin }: AlertInput): MonitorAlert {
  const url = `${publicOrigin}/certification/runs/${encodeURIComponent(run.id)}`;
  const failedCases = run.failed_cases.length > 0 ? ` (${run.failed_cases.slice(0, 10).join(", ")})` : "";
  const outcome =
    run.status === "done" ? `${run.passed} passed, ${run.failed} failed${failedCases}` : `run ${run.status}`;
  const what = event === "monitor_failing" ? "is failing" : "recovered";
  // One line: a name cannot break it, whatever a user typed.
  const label = monitor.name.replace(/\s+/g, " ");
  return {
    event,
    monitor,
    run: { ...run, url },
    text: `Monitor "${label}" on ${monitor.environment} ${what}: ${outcome}. ${url}`,
  };
}

/** `sha256=<hex>` of the body under the secret. */
export function signature(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
