"use client";

import { useEffect } from "react";
import { cx } from "@/components/ui/class-names";
import type { ClientCallRecord } from "@/lib/shared/client-certification-contract";

function time(iso: string): string {
  return iso.slice(11, 23);
}

/** The element id of a call's log entry: checks link to it (`#call-…`). */
export function callAnchor(id: string): string {
  return `call-${id}`;
}

function bodyText(body: unknown, isText: boolean | undefined): string {
  if (body === null || body === undefined) return "";
  return isText && typeof body === "string" ? body : JSON.stringify(body, null, 2);
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

/**
 * The request as the application sent it (its headers, its body as written), then the answer; calls kept
 * before the log kept bodies as text show the parsed body.
 */
function exchangeText(call: ClientCallRecord): string {
  const request = call.request;
  const requestBody = bodyText(request.body, request.body_is_text);
  const responseBody = bodyText(call.response.body, false);
  return [
    `${request.method} ${request.url}`,
    headerLines(request.headers),
    ...(requestBody ? ["", requestBody] : []),
    "",
    `HTTP ${call.response.status}`,
    headerLines(call.response.headers),
    ...(responseBody ? ["", responseBody] : []),
  ].join("\n");
}

/** Opens and scrolls to the first highlighted call, once it is in the log. */
function useShowHighlighted(calls: ClientCallRecord[], highlighted: readonly string[]) {
  const present = highlighted.filter((id) => calls.some((call) => call.id === id)).join(" ");
  useEffect(() => {
    const ids = present ? present.split(" ") : [];
    for (const id of ids) {
      const details = document.getElementById(callAnchor(id))?.querySelector("details");
      if (details) details.open = true;
    }
    const first = ids[0] ? document.getElementById(callAnchor(ids[0])) : null;
    first?.scrollIntoView({ block: "center" });
    first?.querySelector("summary")?.focus({ preventScroll: true });
  }, [present]);
}

/** The calls the sandbox recorded, as they arrive; each opens to the masked, redacted request and response. */
export function CallLog({
  calls,
  highlighted = [],
}: {
  calls: ClientCallRecord[];
  highlighted?: readonly string[];
}) {
  useShowHighlighted(calls, highlighted);
  if (calls.length === 0) {
    return <p className="text-sm text-muted">No call from your application yet.</p>;
  }
  return (
    <ol className="grid min-w-0 grid-cols-1 gap-1" aria-label="Calls from your application">
      {[...calls].reverse().map((call) => {
        const marked = highlighted.includes(call.id);
        return (
          <li
            key={call.id}
            id={callAnchor(call.id)}
            data-call={call.id}
            data-highlighted={marked || undefined}
            className={cx(
              "min-w-0 scroll-mt-20 rounded-md border",
              marked
                ? "border-danger-strong ring-2 ring-red-500/40"
                : call.fault
                  ? "border-danger-strong"
                  : "border-raised",
            )}
          >
            <details>
              <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
                {call.seq !== undefined ? (
                  <span className="font-mono text-xs text-muted tabular-nums">#{call.seq}</span>
                ) : null}
                <span className="font-mono text-xs tabular-nums">{time(call.started_at)}</span>
                <span className="font-semibold">{call.method}</span>
                <span className="min-w-0 font-mono text-xs break-all">{call.path}</span>
                <span className="font-mono font-semibold" data-status={call.status}>
                  {call.status}
                </span>
                {call.request_id ? (
                  <span className="font-mono text-xs break-all text-muted">
                    X-Request-Id {call.request_id}
                  </span>
                ) : null}
                {call.fault ? (
                  <span
                    data-fault={call.fault}
                    className="rounded bg-inset px-1.5 font-mono text-xs text-danger"
                  >
                    fault: {call.fault}
                  </span>
                ) : null}
                {call.behaviour && call.behaviour !== "fault" ? (
                  <span className="text-xs text-warning">{call.behaviour.replace("_", " ")}</span>
                ) : null}
                {call.truncated ? (
                  <span className="text-xs text-muted">cut to keep: {call.truncated.join(", ")}</span>
                ) : null}
              </summary>
              <pre
                tabIndex={0}
                aria-label={`Request and response of ${call.method} ${call.path}`}
                className="max-h-96 max-w-full overflow-auto bg-inset p-3 text-xs"
              >
                {exchangeText(call)}
              </pre>
            </details>
          </li>
        );
      })}
    </ol>
  );
}
