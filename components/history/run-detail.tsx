import type { ReactNode } from "react";
import { environmentLabel } from "@/lib/client/environments";
import { summarizeExchange } from "@/lib/client/exchange-summary";
import type { HistoryRun } from "@/lib/client/history-store";
import { CopyableValue } from "@/components/exchange/copy-button";
import { ExchangeView } from "@/components/exchange/exchange-view";
import { StatusExplanation } from "@/components/exchange/status-explanation";

const TOKEN_EVENT_TEXT = {
  acquired: "token acquired",
  renewed_before_expiry: "token renewed before expiry",
  renewed_after_401: "token renewed after a 401, call retried",
  requested: "token requested now",
} as const;

function Item({ term, wide = false, children }: { term: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "min-w-0 sm:col-span-2" : "min-w-0"}>
      <dt className="text-xs text-muted">{term}</dt>
      <dd className="mt-0.5 min-w-0 text-sm text-fg">{children}</dd>
    </div>
  );
}

/** Everything history kept about one run: the facts first, then the full exchange. */
export function RunDetail({ run }: { run: HistoryRun }) {
  const { exchange } = run;
  return (
    <div className="space-y-4">
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-3">
        <Item term="Started">
          <time dateTime={exchange.started_at}>{new Date(exchange.started_at).toLocaleString()}</time>
        </Item>
        <Item term="Environment">{environmentLabel(exchange.environment)}</Item>
        <Item term="Time taken">{Math.round(exchange.duration_ms)} ms</Item>
        {run.card ? (
          <Item term="Card">
            <code className="font-mono">{run.card.masked}</code>
          </Item>
        ) : null}
        {run.location_id ? (
          <Item term="Location ID">
            <code className="font-mono">{run.location_id}</code>
          </Item>
        ) : null}
        <Item term="Result">{summarizeExchange(exchange).label}</Item>
        {exchange.request_id ? (
          <Item term="Request Id" wide>
            <CopyableValue value={exchange.request_id} name="Request Id" />
          </Item>
        ) : null}
        {run.token ? (
          <Item term="Token">
            <span className="font-mono text-xs">
              {run.token.fingerprint} · {run.token.scopes.join(" ")}
            </span>
          </Item>
        ) : null}
        {exchange.token_events.length > 0 ? (
          <Item term="Token events">
            <ul>
              {exchange.token_events.map((event) => (
                <li key={`${event.type}-${event.at}`}>
                  {TOKEN_EVENT_TEXT[event.type]}{" "}
                  <span className="font-mono text-xs text-muted">{event.fingerprint}</span>
                </li>
              ))}
            </ul>
          </Item>
        ) : null}
      </dl>
      <StatusExplanation exchange={exchange} />
      <ExchangeView exchange={exchange} defaultOpen />
    </div>
  );
}
