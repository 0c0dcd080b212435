import type { ClientCallRecord } from "@/lib/shared/client-certification-contract";

function time(iso: string): string {
  return iso.slice(11, 23);
}

/** The calls the sandbox recorded, as they arrive; each opens to the masked, redacted request and response. */
export function CallLog({ calls }: { calls: ClientCallRecord[] }) {
  if (calls.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">No call from your application yet.</p>;
  }
  return (
    <ol className="grid min-w-0 grid-cols-1 gap-1" aria-label="Calls from your application">
      {[...calls].reverse().map((call) => (
        <li
          key={call.id}
          data-call={call.id}
          className="min-w-0 rounded-md border border-slate-200 dark:border-slate-700"
        >
          <details>
            <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
              <span className="font-mono text-xs tabular-nums">{time(call.started_at)}</span>
              <span className="font-semibold">{call.method}</span>
              <span className="min-w-0 font-mono text-xs break-all">{call.path}</span>
              <span className="font-mono font-semibold" data-status={call.status}>
                {call.status}
              </span>
              {call.request_id ? (
                <span className="font-mono text-xs break-all text-slate-600 dark:text-slate-400">
                  X-Request-Id {call.request_id}
                </span>
              ) : null}
              {call.behaviour ? (
                <span className="text-xs text-amber-800 dark:text-amber-300">
                  {call.behaviour.replace("_", " ")}
                </span>
              ) : null}
              {call.truncated ? (
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  cut to keep: {call.truncated.join(", ")}
                </span>
              ) : null}
            </summary>
            <pre
              tabIndex={0}
              aria-label={`Request and response of ${call.method} ${call.path}`}
              className="max-h-96 max-w-full overflow-auto bg-slate-50 p-3 text-xs dark:bg-slate-900"
            >
              {JSON.stringify({ request: call.request, response: call.response }, null, 2)}
            </pre>
          </details>
        </li>
      ))}
    </ol>
  );
}
