import { useState } from "react";
import { operationLabel } from "@/lib/shared/operations";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { environmentLabel } from "@/lib/client/environments";
import { isSuccessStatus, responseData, summarizeExchange } from "@/lib/client/exchange-summary";
import { statusLine } from "@/lib/client/http-status";
import { CopyableValue } from "@/components/exchange/copy-button";
import { ExchangeView, statusTone } from "@/components/exchange/exchange-view";
import { LookupOutcomeView } from "@/components/exchange/lookup-outcome-view";
import { RequestIdLookupButton, type LookupOutcome } from "@/components/exchange/lookup-button";
import { StatusExplanation } from "@/components/exchange/status-explanation";
import { explainExchange } from "@/lib/client/status-explanations";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { PURSES, isPurse, purseLabel } from "@/lib/shared/purses";
import { TOKEN_EVENT_LABELS } from "@/components/token/token-events";
import { Panel } from "@/components/ui/panel";

function text(value: unknown): string | null {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
}

function Detail({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <div className="grid min-h-11 grid-cols-1 gap-0.5 py-1.5 sm:grid-cols-[10rem_1fr] sm:items-center sm:gap-3">
      <dt className="font-mono text-xs text-muted">{name}</dt>
      <dd className="min-w-0 text-sm text-fg">{children}</dd>
    </div>
  );
}

function GiftResult({ exchange, data }: { exchange: ExchangeRecord; data: Record<string, unknown> }) {
  const verdict = text(data.response_status);
  const approved = verdict === "approved";
  const requestId = exchange.request_id ?? null;
  const [lookup, setLookup] = useState<LookupOutcome | null>(null);
  return (
    <div>
      <div className="flex flex-wrap items-center gap-3">
        <Badge tone={approved ? "success" : verdict === "declined" ? "warning" : "neutral"} size="lg">
          {approved
            ? "✓ Approved"
            : verdict === "declined"
              ? "✕ Declined"
              : (verdict ?? "No response_status")}
        </Badge>
        <span className="font-mono text-sm text-fg">{text(data.response_code)}</span>
        <span className="text-sm text-muted">{text(data.response_message)}</span>
      </div>
      <div className="mt-5">
        <p className="text-xs font-medium tracking-wide text-muted uppercase">Gift balance</p>
        <p
          className="mt-1 font-mono text-4xl font-semibold tracking-tight text-fg tabular-nums"
          data-testid="gift-balance"
        >
          {text(data.balance) ?? "—"}
        </p>
      </div>
      <dl className="mt-4 divide-y divide-subtle border-t border-subtle">
        <Detail name="transaction_id">
          {text(data.transaction_id) ? (
            <CopyableValue value={text(data.transaction_id)!} name="transaction_id" />
          ) : (
            "—"
          )}
        </Detail>
        <Detail name="external_id">
          {text(data.external_id) ? (
            <CopyableValue value={text(data.external_id)!} name="external_id" />
          ) : (
            "—"
          )}
        </Detail>
        <Detail name="Request Id">
          {requestId ? (
            <span className="flex flex-wrap items-center gap-2">
              <CopyableValue value={requestId} name="Request Id" />
              <RequestIdLookupButton requestId={requestId} onOutcome={setLookup} />
            </span>
          ) : (
            "—"
          )}
        </Detail>
        <Detail name="card_number">
          <span className="font-mono">{text(data.card_number) ?? "—"}</span>
        </Detail>
        {text(data.timestamp) ? (
          <Detail name="timestamp">
            <span className="font-mono text-xs">{text(data.timestamp)}</span>
          </Detail>
        ) : null}
      </dl>
      {lookup ? (
        <div className="mt-4" aria-live="polite">
          <LookupOutcomeView outcome={lookup} transactionId={text(data.transaction_id)} />
        </div>
      ) : null}
    </div>
  );
}

function BalanceResult({ data }: { data: Record<string, unknown> }) {
  const balances =
    typeof data.balances === "object" && data.balances !== null
      ? (data.balances as Record<string, unknown>)
      : {};
  const extra = Object.keys(balances).filter((key) => !isPurse(key));
  return (
    <div>
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 text-sm">
        <span className="font-mono text-fg">{text(data.card_number) ?? "—"}</span>
        {text(data.system_time) ? (
          <span className="text-xs text-muted">
            system_time <span className="font-mono">{text(data.system_time)}</span>
          </span>
        ) : null}
      </div>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">Purse balances</caption>
        <thead>
          <tr className="border-b border-raised text-left text-xs text-muted">
            <th scope="col" className="py-2 font-medium">
              Purse
            </th>
            <th scope="col" className="py-2 font-medium">
              Key
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Balance
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-subtle">
          {[...PURSES, ...extra].map((key) => {
            const label = purseLabel(key);
            const amount = text(balances[key]);
            return (
              <tr key={key}>
                <th scope="row" className="py-2 text-left font-medium text-fg">
                  {label}
                </th>
                <td className="py-2 font-mono text-xs text-muted">{key}</td>
                <td className="py-2 text-right font-mono text-fg tabular-nums">
                  {amount ?? <span className="text-warning">missing</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The Request Id of a Gift Balance Inquiry whose answer could not be read (e.g. a 201 whose body is not
 * JSON): the transaction may exist, so its Request Id and the lookup are offered.
 */
function UnreadGiftRequestId({ requestId }: { requestId: string }) {
  const [lookup, setLookup] = useState<LookupOutcome | null>(null);
  return (
    <div className="space-y-3">
      <dl className="divide-y divide-subtle border-y border-subtle">
        <Detail name="Request Id">
          <span className="flex flex-wrap items-center gap-2">
            <CopyableValue value={requestId} name="Request Id" />
            <RequestIdLookupButton requestId={requestId} onOutcome={setLookup} />
          </span>
        </Detail>
      </dl>
      {lookup ? (
        <div aria-live="polite">
          <LookupOutcomeView outcome={lookup} />
        </div>
      ) : null}
    </div>
  );
}

/** One inquiry's result: the outcome first, then the exact exchange. */
export function InquiryResult({
  exchange,
  fullCardNumber,
}: {
  exchange: ExchangeRecord;
  fullCardNumber: string | null;
}) {
  const data = responseData(exchange);
  const success = isSuccessStatus(exchange.response.status) && data !== null;
  const summary = summarizeExchange(exchange);
  return (
    <div className="space-y-4">
      <Panel aria-labelledby="result-heading" flush>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-default px-5 py-3">
          <h2 id="result-heading" className="text-sm font-semibold text-fg">
            {operationLabel(exchange.operation)}
          </h2>
          <Badge tone={statusTone(exchange.response.status)}>{statusLine(exchange.response.status)}</Badge>
          <span className="text-xs text-muted tabular-nums">
            {Math.round(exchange.duration_ms)} ms · {environmentLabel(exchange.environment)}
          </span>
          <span className="sr-only" role="status">
            {`${operationLabel(exchange.operation)}: ${summary.label}`}
          </span>
        </div>
        <div className="space-y-4 px-5 py-4">
          {exchange.token_events.length > 0 ? (
            <ul className="flex flex-wrap gap-2" aria-label="Token events">
              {exchange.token_events.map((event) => (
                <li key={`${event.type}-${event.at}`}>
                  <Badge tone={TOKEN_EVENT_LABELS[event.type]?.tone ?? "neutral"}>
                    Token {TOKEN_EVENT_LABELS[event.type]?.label.toLowerCase() ?? event.type}
                  </Badge>
                </li>
              ))}
            </ul>
          ) : null}
          {success ? (
            exchange.operation === "gift_balance_inquiry" ? (
              <GiftResult exchange={exchange} data={data} />
            ) : (
              <BalanceResult data={data} />
            )
          ) : explainExchange(exchange) ? (
            <StatusExplanation exchange={exchange} />
          ) : (
            <Alert tone="warning" title={`${statusLine(exchange.response.status)} · unexpected body`}>
              The response has no <code className="font-mono">data</code> object to read (API specification
              §4.3, §4.4). The raw response below shows what came back.
            </Alert>
          )}
          {!success && exchange.operation === "gift_balance_inquiry" && exchange.request_id ? (
            <UnreadGiftRequestId requestId={exchange.request_id} />
          ) : null}
        </div>
      </Panel>
      <ExchangeView exchange={exchange} fullCardNumber={fullCardNumber} defaultOpen={!success} />
    </div>
  );
}
