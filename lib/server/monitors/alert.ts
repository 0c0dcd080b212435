/**
 * The alert a monitor sends (docs/design.md §13): `{type, timestamp, data: {monitor, run, text}}`, whose `text` a
 * Slack or Teams incoming webhook can show as is. Whatever a user typed (the monitor's name) reaches it masked
 * and neutralised: no mention, no link markup, no card number.
 */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { maskCardNumbersInText } from "@/lib/shared/masking";
import type { AlertType, MonitorAlert } from "@/lib/shared/monitors-api";

export interface AlertInput {
  type: AlertType;
  /** When the alert is made; the payload's `timestamp`, the same on every retry. */
  at: Date;
  monitor: { id: string; name: string; environment: EnvironmentName } | null;
  run: { id: string; status: string; passed: number; failed: number; failed_cases: string[] } | null;
  /** Failing runs in a row behind a `monitor.failing` alert. */
  failingRuns?: number;
  /** The console's public origin: the run's page is linked absolutely. */
  publicOrigin: string;
}

/**
 * A user's words made inert for chat: one line, card numbers masked, and nothing Slack or Teams would read as
 * markup once `&`, `<` and `>` are escaped (by `escapeForChat`) — no `@here`/`@channel` (the at sign is the
 * full-width one), no Markdown link `[text](url)` (full-width brackets), no address a client would link.
 */
function inertText(text: string): string {
  return maskCardNumbersInText(text.replace(/[\s\p{Cc}\p{Cf}]+/gu, " ").trim())
    .replace(/@/g, "＠")
    .replace(/\[/g, "［")
    .replace(/\]/g, "］")
    .replace(/:\/\//g, ":∕∕");
}

/** Slack's three escapes (Teams reads the same text as plain): `<!channel>` and `<url|text>` lose their meaning. */
function escapeForChat(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function summary(input: AlertInput, url: string | null): string {
  const { monitor, run } = input;
  const subject = monitor
    ? `Monitor "${inertText(monitor.name)}" on ${monitor.environment}`
    : "The Card Services Console";
  if (input.type === "monitor.test") return `Test alert: ${subject} can reach this receiver.`;
  const outcome = !run
    ? ""
    : run.status === "done"
      ? `: ${run.passed} passed, ${run.failed} failed${run.failed_cases.length > 0 ? ` (${run.failed_cases.slice(0, 10).join(", ")})` : ""}`
      : `: run ${run.status}`;
  const what =
    input.type === "monitor.recovered"
      ? "recovered"
      : (input.failingRuns ?? 1) > 1
        ? `is failing (${input.failingRuns} runs in a row)`
        : "is failing";
  return `${subject} ${what}${outcome}.${url ? ` ${url}` : ""}`;
}

export function alertBody(input: AlertInput): MonitorAlert {
  const url = input.run
    ? `${input.publicOrigin}/certification/runs/${encodeURIComponent(input.run.id)}`
    : null;
  return {
    type: input.type,
    timestamp: input.at.toISOString(),
    data: {
      monitor: input.monitor ? { ...input.monitor, name: maskCardNumbersInText(input.monitor.name) } : null,
      run: input.run && url ? { ...input.run, url } : null,
      text: escapeForChat(summary(input, url)),
    },
  };
}
