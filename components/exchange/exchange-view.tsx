"use client";

import { useId, useState, type ReactNode } from "react";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { matchesMask } from "@/lib/client/card-mask";
import { environmentLabel } from "@/lib/client/environments";
import { operationLabel } from "@/lib/shared/operations";
import { recordedCardFields } from "@/lib/client/history-store";
import { requestBodyView } from "@/lib/client/request-body-view";
import { statusLine } from "@/lib/client/http-status";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cx } from "@/components/ui/class-names";
import { CodeExport, useTokenRequestTarget } from "./code-export";
import { StarterClientsLinks } from "@/components/client-certification/starter-clients-offer";
import { codeGenerator } from "./code-generator";
import { CopyButton } from "./copy-button";
import { HeadersTable } from "./headers-table";
import { JsonViewer } from "./json-viewer";
import { Panel } from "@/components/ui/panel";

export function statusTone(status: number): BadgeTone {
  if (status >= 200 && status < 300) return "success";
  if (status >= 500 || status === 0) return "danger";
  return "warning";
}

function Section({
  title,
  summary,
  defaultOpen,
  children,
}: {
  title: string;
  summary: ReactNode;
  defaultOpen: boolean;
  children: ReactNode;
}) {
  return (
    <details open={defaultOpen} className="group border-t border-default">
      <summary
        className={cx(
          "flex cursor-pointer list-none items-center gap-3 px-4 py-2.5 text-sm select-none [&::-webkit-details-marker]:hidden",
          "hover:bg-raised/50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500",
        )}
      >
        <svg
          viewBox="0 0 20 20"
          fill="currentColor"
          aria-hidden="true"
          className="size-4 shrink-0 text-subtle transition-transform group-open:rotate-90"
        >
          <path
            fillRule="evenodd"
            d="M8.22 5.22a.75.75 0 0 1 1.06 0l4.25 4.25a.75.75 0 0 1 0 1.06l-4.25 4.25a.75.75 0 0 1-1.06-1.06L11.94 10 8.22 6.28a.75.75 0 0 1 0-1.06Z"
            clipRule="evenodd"
          />
        </svg>
        <span className="w-20 shrink-0 font-medium text-fg">{title}</span>
        <span className="flex min-w-0 flex-1 items-center gap-2">{summary}</span>
      </summary>
      <div className="space-y-3 px-4 pt-1 pb-4">{children}</div>
    </details>
  );
}

function SubHeading({ children }: { children: ReactNode }) {
  return <h4 className="mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase">{children}</h4>;
}

/**
 * The exact request and response of one exchange: method, URL, headers (Authorization redacted), body,
 * status, duration; a JSON viewer for bodies; copy as cURL or fetch. Reusable by any page that has an
 * exchange record (inquiry, token, compare, history).
 */
export function ExchangeView({
  exchange,
  fullCardNumber,
  defaultOpen = false,
  title = "Request and response",
  headingLevel = 3,
}: {
  exchange: ExchangeRecord;
  /** The card number as the user typed it in this page; enables "include the full card number". */
  fullCardNumber?: string | null;
  /** Opens the response section at once (e.g. for an error or a body that is not JSON). */
  defaultOpen?: boolean;
  title?: string;
  headingLevel?: 2 | 3;
}) {
  const [includeCard, setIncludeCard] = useState(false);
  const checkboxId = useId();
  const headingId = useId();
  const recordedCard = recordedCardFields(exchange).cardNumber;
  const canInclude = Boolean(fullCardNumber && recordedCard && matchesMask(recordedCard, fullCardNumber));
  const [withToken, setWithToken] = useState(false);
  const tokenTarget = useTokenRequestTarget(exchange);
  const generator = codeGenerator.useModule();
  // One set of options for the header's buttons and the code panel: both copy the same code.
  const options = {
    fullCardNumber: canInclude && includeCard ? fullCardNumber : null,
    token: withToken ? tokenTarget : null,
  };
  const { request, response } = exchange;
  const Heading = headingLevel === 2 ? "h2" : "h3";

  return (
    <Panel aria-labelledby={headingId} className="overflow-hidden" flush>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3">
        {/* A minimum width: when space runs out the actions wrap below instead of squeezing the title. */}
        <div className="min-w-[15rem] flex-1">
          <Heading id={headingId} className="text-sm font-semibold text-fg">
            {title}
          </Heading>
          <p className="mt-0.5 text-xs text-muted">
            {operationLabel(exchange.operation)} · {environmentLabel(exchange.environment)} ·{" "}
            <time dateTime={exchange.started_at}>{new Date(exchange.started_at).toLocaleTimeString()}</time>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {canInclude ? (
            <label htmlFor={checkboxId} className="flex items-center gap-1.5 text-xs text-body">
              <input
                id={checkboxId}
                type="checkbox"
                checked={includeCard}
                onChange={(event) => setIncludeCard(event.target.checked)}
                className="size-4 accent-indigo-600"
              />
              Unmask the card in copied code
            </label>
          ) : null}
          {/* Offered once the generator has loaded (when the page is idle, or at once when the Code panel opens). */}
          {generator ? (
            <>
              <CopyButton
                variant="secondary"
                text={() => generator.exchangeToCurl(exchange, options)}
                label="Copy as cURL"
              />
              <CopyButton
                variant="secondary"
                text={() => generator.exchangeToFetch(exchange, options)}
                label="Copy as fetch"
              />
            </>
          ) : null}
        </div>
      </div>

      <Section
        title="Request"
        defaultOpen={false}
        summary={
          <>
            <Badge tone="accent">{request.method}</Badge>
            <code className="min-w-0 truncate font-mono text-xs text-body" title={request.url}>
              {request.url}
            </code>
          </>
        }
      >
        <div>
          <SubHeading>URL</SubHeading>
          <code className="font-mono text-xs break-all text-fg">{request.url}</code>
        </div>
        <div>
          <SubHeading>Headers</SubHeading>
          <HeadersTable headers={request.headers} caption="Request headers" />
        </div>
        <div>
          <SubHeading>Body</SubHeading>
          <JsonViewer label="Request body" {...requestBodyView(request.body)} />
        </div>
      </Section>

      <Section
        title="Response"
        defaultOpen={defaultOpen}
        summary={
          <>
            <Badge tone={statusTone(response.status)}>{statusLine(response.status)}</Badge>
            <span className="text-xs text-muted tabular-nums">{Math.round(exchange.duration_ms)} ms</span>
            {response.body_is_text ? <Badge tone="warning">not JSON</Badge> : null}
            {response.schema_issues?.length ? <Badge tone="warning">differs from spec</Badge> : null}
          </>
        }
      >
        {response.schema_issues?.length ? (
          <div className="rounded-lg border border-warning bg-warning px-3 py-2 text-xs text-warning-strong">
            <p className="font-semibold">The body does not match the specification:</p>
            <ul className="mt-1 list-disc pl-5">
              {response.schema_issues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {exchange.timings ? (
          <p className="text-xs text-muted tabular-nums">
            Upstream {Math.round(exchange.timings.upstream_ms)} ms · token{" "}
            {Math.round(exchange.timings.token_ms)} ms
            {exchange.timings.retried_ms !== undefined
              ? ` · first attempt (401) ${Math.round(exchange.timings.retried_ms)} ms`
              : ""}{" "}
            · total {Math.round(exchange.timings.total_ms)} ms
          </p>
        ) : null}
        <div>
          <SubHeading>Headers</SubHeading>
          <HeadersTable headers={response.headers} caption="Response headers" />
        </div>
        <div>
          <SubHeading>Body</SubHeading>
          <JsonViewer value={response.body} label="Response body" isText={Boolean(response.body_is_text)} />
        </div>
      </Section>

      <Section
        title="Code"
        defaultOpen={false}
        summary={<span className="text-xs text-muted">cURL, Python, Java, Go and more</span>}
      >
        <CodeExport
          exchange={exchange}
          options={options}
          withToken={withToken}
          onWithTokenChange={setWithToken}
        />
        <StarterClientsLinks />
      </Section>
    </Panel>
  );
}
