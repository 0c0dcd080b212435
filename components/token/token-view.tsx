"use client";

import Link from "next/link";
import type { FormEvent } from "react";
import type { TokenMetadata } from "@/lib/shared/contracts";
import { latestRun, tokenEventsOf, useHistoryRuns } from "@/lib/client/use-history";
import { useRequestToken } from "@/lib/client/use-console-api";
import { onDemand } from "@/lib/client/on-demand";
import { useSession } from "@/lib/client/use-session-api";
import { ApiErrorAlert, CONSOLE_UNANSWERED_TITLE } from "@/components/exchange/api-error-alert";
import { CopyableValue } from "@/components/exchange/copy-button";
import { JsonViewer } from "@/components/exchange/json-viewer";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { RunShortcutHint } from "@/components/ui/kbd";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { OutlineIcon } from "@/components/ui/outline-icon";
import { ScopeList } from "./scope-list";
import { TokenEventList } from "./token-events";
import { TokenLifetime } from "./token-lifetime";

const TIME_CLAIMS = new Set(["iat", "exp", "nbf"]);

// Shown only after a token request (or once history has loaded), so in no first load: fetched when the page is
// idle, and each shown whole once it is there.
const exchangeViewModule = onDemand(() => import("@/components/exchange/exchange-view"));
const statusExplanationModule = onDemand(() => import("@/components/exchange/status-explanation"));

function TimeClaims({ claims }: { claims: Record<string, unknown> }) {
  const times = Object.entries(claims).filter(
    (entry): entry is [string, number] => TIME_CLAIMS.has(entry[0]) && typeof entry[1] === "number",
  );
  if (times.length === 0) return null;
  return (
    <dl className="mt-2 grid grid-cols-[3rem_1fr] gap-x-2 gap-y-0.5 text-xs">
      {times.map(([name, seconds]) => (
        <div key={name} className="contents">
          <dt className="font-mono text-muted">{name}</dt>
          <dd className="text-fg">{new Date(seconds * 1000).toISOString()}</dd>
        </div>
      ))}
    </dl>
  );
}

function TokenDetails({ token }: { token: TokenMetadata }) {
  return (
    <div className="space-y-6">
      <Panel
        title="Access token"
        titleId="token-summary"
        actions={
          <>
            <Badge tone="accent">{token.token_type}</Badge>
          </>
        }
      >
        <TokenLifetime token={token} />
        <div className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-default pt-4 text-sm">
          <span className="text-muted">Fingerprint</span>
          <CopyableValue value={token.fingerprint} name="fingerprint" />
          <span className="text-xs text-muted">
            First 12 hex digits of the token&apos;s SHA-256: tells tokens apart without revealing them.
          </span>
        </div>
      </Panel>

      <Panel
        title="Scopes"
        titleId="token-scopes"
        description="Space-separated permissions granted to the token (API specification §2.2), and what each one enables."
      >
        <ScopeList scopes={token.scopes} />
      </Panel>

      <Panel
        title="Decoded JWT"
        titleId="token-jwt"
        description="Read on the server with the signature unverified: for inspection, not for trust."
      >
        <div className="grid gap-4 md:grid-cols-2">
          <div>
            <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase">Header</h3>
            <JsonViewer value={token.header} label="JWT header" />
          </div>
          <div>
            <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase">Claims</h3>
            <JsonViewer value={token.claims} label="JWT claims" />
            <TimeClaims claims={token.claims} />
          </div>
        </div>
      </Panel>

      <Panel
        title="Response envelope"
        titleId="token-envelope"
        description="The token response's meta and jsonapi members."
      >
        <div className="grid gap-4 md:grid-cols-2">
          <div>
            <h3 className="mb-1.5 font-mono text-xs font-semibold text-muted">meta</h3>
            <JsonViewer value={token.meta} label="meta" />
          </div>
          <div>
            <h3 className="mb-1.5 font-mono text-xs font-semibold text-muted">jsonapi</h3>
            <JsonViewer value={token.jsonapi} label="jsonapi" />
          </div>
        </div>
      </Panel>
    </div>
  );
}

function LoadingState() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading the token">
      <Panel title="Access token">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="mt-2 h-9 w-48" />
        <Skeleton className="mt-4 h-2 w-full" />
        <Skeleton className="mt-4 h-10 w-full" />
      </Panel>
    </div>
  );
}

export function TokenView() {
  const { data: session, error: sessionError } = useSession();
  const request = useRequestToken();
  const { data: runs } = useHistoryRuns();
  const exchangeView = exchangeViewModule.useModule();
  const statusExplanation = statusExplanationModule.useModule();
  const connected = session ? session.credentials.source !== "none" : false;
  // The newest exchange: this page's request, else the last token request kept in history.
  const exchange = request.data?.exchange ?? latestRun(runs, "token")?.exchange;
  const failed = request.data && !request.data.token ? request.data.exchange : null;
  const token = session?.token ?? null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void request.trigger({}).catch(() => {});
  }

  return (
    <>
      <form data-run-shortcut onSubmit={submit}>
        <PageHeader
          title="Token"
          description={
            <>
              An OAuth 2.0 client-credentials token from{" "}
              <code className="font-mono text-xs">POST {"{auth_url}"}/reporting/v1/auth/token</code> (API
              specification §4.1). The token itself stays on the server; this page shows what is known about
              it.
            </>
          }
          action={
            <Button type="submit" variant="primary" size="lg" busy={request.isMutating} disabled={!session}>
              {token ? "Request a new token" : "Request token"}
              <RunShortcutHint />
            </Button>
          }
        />
      </form>

      <div className="space-y-6">
        {sessionError && !session ? (
          <ApiErrorAlert error={sessionError} fallbackTitle={CONSOLE_UNANSWERED_TITLE} />
        ) : null}

        {request.error ? (
          <ApiErrorAlert error={request.error} fallbackTitle="The token request failed" />
        ) : null}

        {failed && statusExplanation ? <statusExplanation.StatusExplanation exchange={failed} /> : null}

        {!session ? (
          <LoadingState />
        ) : token ? (
          <TokenDetails token={token} />
        ) : (
          <Panel>
            <div className="flex min-h-48 flex-col items-center justify-center gap-3 text-center">
              <OutlineIcon path="M15.75 5.25a3 3 0 0 1 3 3m3 0a6 6 0 0 1-7.029 5.912c-.563-.097-1.159.026-1.563.43L10.5 17.25H8.25v2.25H6v2.25H2.25v-2.818c0-.597.237-1.17.659-1.591l6.499-6.499c.404-.404.527-1 .43-1.563A6 6 0 1 1 21.75 8.25Z" />
              <div>
                <p className="font-medium text-fg">No token in this session</p>
                <p className="mt-1 max-w-md text-sm text-muted">
                  {connected
                    ? "Request one now, or just run an inquiry: the console fetches a token when it needs one."
                    : "Connect with credentials first; then request a token here."}
                </p>
              </div>
              {connected ? null : (
                <Link href="/connect" className={buttonClasses("secondary", "md")}>
                  Go to Connect
                </Link>
              )}
            </div>
          </Panel>
        )}

        <Panel
          title="Token events"
          titleId="token-events"
          description="How the console acquired and renewed tokens during your runs (API specification §5.7–5.8)."
        >
          <TokenEventList events={tokenEventsOf(runs)} />
        </Panel>

        {exchange && exchangeView ? (
          <exchangeView.ExchangeView
            exchange={exchange}
            title={request.data ? "Last token request" : "Last token request (from history)"}
            defaultOpen={Boolean(failed)}
          />
        ) : null}
      </div>
    </>
  );
}
