import Link from "next/link";
import type { ReactNode } from "react";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { ConsoleErrorLike } from "@/lib/client/api-error-view";
import { SPEC_PURSES, purseLabel } from "@/lib/client/compare-money";
import { responseData } from "@/lib/shared/exchange-summary";
import { responseError } from "@/lib/client/response-error";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/class-names";
import { Skeleton } from "@/components/ui/skeleton";
import { HttpStatusBadge } from "@/components/ui/http-status-badge";
import { ApiErrorAlert } from "@/components/exchange/api-error-alert";
import { CopyableValue } from "@/components/exchange/copy-button";
import { StatusExplanation } from "@/components/exchange/status-explanation";
import { Panel } from "@/components/ui/panel";

/** What one side of "Run both" produced: an exchange record, or the console's error (no answer, no token…). */
export type RunOutcome = { record: ExchangeRecord } | { error: ConsoleErrorLike };

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_minmax(0,1fr)] items-baseline gap-3 py-1.5">
      <dt className="text-sm text-muted">{term}</dt>
      <dd className="min-w-0 text-sm text-fg">{children}</dd>
    </div>
  );
}

function text(value: unknown): string {
  return typeof value === "string"
    ? value
    : value === undefined || value === null
      ? "—"
      : JSON.stringify(value);
}

function GiftFacts({ record }: { record: ExchangeRecord }) {
  const data = responseData(record);
  if (!data) return null;
  const status = data.response_status;
  return (
    <dl className="divide-y divide-subtle">
      <Row term="Gift balance">
        <span className="font-mono text-2xl font-semibold tabular-nums" data-testid="gift-balance">
          {text(data.balance)}
        </span>
      </Row>
      <Row term="Result">
        <span className="flex flex-wrap items-center gap-2">
          <Badge tone={status === "approved" ? "success" : status === "declined" ? "warning" : "neutral"}>
            {text(status)}
          </Badge>
          <code className="font-mono text-xs text-body">{text(data.response_code)}</code>
          <span className="text-muted">{text(data.response_message)}</span>
        </span>
      </Row>
      <Row term="transaction_type">
        <code className="font-mono text-xs">{text(data.transaction_type)}</code>
      </Row>
      <Row term="transaction_id">
        {typeof data.transaction_id === "string" ? (
          <CopyableValue value={data.transaction_id} name="transaction_id" />
        ) : (
          "—"
        )}
      </Row>
      <Row term="external_id">
        {typeof data.external_id === "string" ? (
          <CopyableValue value={data.external_id} name="external_id" />
        ) : (
          "—"
        )}
      </Row>
      <Row term="Request Id">
        {record.request_id ? <CopyableValue value={record.request_id} name="Request Id" /> : "—"}
      </Row>
    </dl>
  );
}

function BalanceFacts({
  record,
  giftBalance,
  giftMatches,
}: {
  record: ExchangeRecord;
  giftBalance: string | null;
  giftMatches: boolean | null;
}) {
  const data = responseData(record);
  const balances =
    data && typeof data.balances === "object" && data.balances !== null
      ? (data.balances as Record<string, unknown>)
      : null;
  if (!balances) return null;
  const names = [
    ...SPEC_PURSES.filter((purse) => purse in balances),
    ...Object.keys(balances).filter((name) => !(SPEC_PURSES as readonly string[]).includes(name)),
  ];
  return (
    <table className="w-full text-sm" aria-label="Balances by purse">
      <thead className="sr-only">
        <tr>
          <th scope="col">Purse</th>
          <th scope="col">Balance</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-subtle">
        {names.map((purse) => {
          const highlighted = purse === "gift";
          return (
            <tr key={purse} className={highlighted ? "bg-accent-soft" : undefined}>
              <th scope="row" className="py-1.5 pl-2 text-left font-normal text-body">
                {purseLabel(purse)}
                <code className="ml-2 font-mono text-xs text-muted">{purse}</code>
              </th>
              <td className="py-1.5 pr-2 text-right font-mono tabular-nums text-fg">
                {highlighted && giftMatches !== null ? (
                  <span
                    className={cx("mr-3 font-sans text-xs", giftMatches ? "text-success" : "text-danger")}
                  >
                    {giftMatches ? "= Gift Balance Inquiry" : `≠ Gift Balance Inquiry ${giftBalance ?? ""}`}
                  </span>
                ) : null}
                {text(balances[purse])}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function FailureFacts({ record }: { record: ExchangeRecord }) {
  const error = responseError(record);
  return (
    <div className="space-y-3">
      <StatusExplanation exchange={record} />
      {error ? (
        <dl className="divide-y divide-subtle">
          <Row term="Error code">
            <code className="font-mono">{error.code ?? "—"}</code>
          </Row>
          {error.title ? <Row term="Title">{error.title}</Row> : null}
          {error.detail ? <Row term="Detail">{error.detail}</Row> : null}
        </dl>
      ) : null}
    </div>
  );
}

/** One side of "Run both": the facts a person reads first (the full exchange is shown below both panels). */
export function RunResultPanel({
  title,
  titleId,
  outcome,
  busy,
  giftBalance = null,
  giftMatches = null,
}: {
  title: string;
  titleId: string;
  outcome: RunOutcome | null;
  busy: boolean;
  /** For the Balance Inquiry panel: the Gift Balance Inquiry's balance, shown next to balances.gift. */
  giftBalance?: string | null;
  /** Whether that balance equals balances.gift; null when they were not compared. */
  giftMatches?: boolean | null;
}) {
  const record = outcome && "record" in outcome ? outcome.record : null;
  const status = record?.response.status;
  return (
    <Panel
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      className="flex min-h-[22rem] min-w-0 flex-col"
      flush
    >
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-default px-5 py-3">
        <h3 id={titleId} className="text-sm font-semibold text-fg">
          {title}
        </h3>
        <div className="flex items-center gap-2 text-xs text-muted">
          {busy ? (
            <Skeleton className="h-5 w-24" />
          ) : record ? (
            <>
              <span className="tabular-nums">{Math.round(record.duration_ms)} ms</span>
              <HttpStatusBadge status={status!} size="sm" />
            </>
          ) : null}
        </div>
      </header>
      <div className="flex-1 px-5 py-4">
        {busy ? (
          <div className="space-y-3" aria-hidden="true">
            <Skeleton className="h-8 w-28" />
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        ) : !outcome ? (
          <p className="text-sm text-muted">Not run yet.</p>
        ) : "error" in outcome ? (
          <ApiErrorAlert error={outcome.error} fallbackTitle="No answer from the Card Services API" />
        ) : status !== undefined && status >= 200 && status < 300 && responseData(outcome.record) ? (
          outcome.record.operation === "gift_balance_inquiry" ? (
            <GiftFacts record={outcome.record} />
          ) : (
            <BalanceFacts record={outcome.record} giftBalance={giftBalance} giftMatches={giftMatches} />
          )
        ) : (
          <FailureFacts record={outcome.record} />
        )}
      </div>
      {record && !busy ? (
        <footer className="border-t border-default px-5 py-2.5 text-xs">
          <Link
            href={`/history?run=${encodeURIComponent(record.id)}`}
            className="font-medium text-accent underline-offset-2 hover:underline"
          >
            Open in history
          </Link>
        </footer>
      ) : null}
    </Panel>
  );
}
