"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";
import type { EnvironmentName, ExchangeRecord } from "@/lib/api/contracts";
import { loginUrl } from "@/lib/client/api-keys";
import { environmentLabel } from "@/lib/client/environments";
import type { ApiClientError } from "@/lib/client/fetcher";
import { isNoAnswerError, requestIdOfError } from "@/lib/client/outcome-unknown";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { CopyableValue } from "./copy-button";
import { ExchangeView } from "./exchange-view";
import { LookupResult, RequestIdLookupButton, type LookupOutcome } from "./request-id-lookup";
import { StatusExplanation } from "./status-explanation";

const TITLES: Record<string, string> = {
  no_credentials: "Connect first",
  token_refused: "The token endpoint refused the credentials",
  upstream_timeout: "The upstream did not answer in time",
  upstream_unreachable: "The upstream could not be reached",
  upstream_tls_error: "The upstream's TLS connection failed",
  validation_failed: "Check the highlighted fields",
  environment_changed: "The environment changed in another tab",
  not_signed_in: "You are signed out",
  forbidden_by_role: "Your role does not allow this",
  rate_limited: "Too many calls: wait a moment",
};

/** Seconds to wait before calling again, from a 429 `rate_limited` answer's details. */
function retryAfterSeconds(error: ApiClientError): number | null {
  const seconds = (error.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  return typeof seconds === "number" && Number.isFinite(seconds) ? seconds : null;
}

/** The exchange record an error carries, e.g. the refused token request of `token_refused`. */
function errorExchange(error: ApiClientError): ExchangeRecord | null {
  const details = error.details as { exchange?: ExchangeRecord } | undefined;
  return details?.exchange && typeof details.exchange === "object" ? details.exchange : null;
}

function environmentChange(error: ApiClientError): { from: EnvironmentName; to: EnvironmentName } | null {
  const details = error.details as
    { session_environment?: EnvironmentName; requested_environment?: EnvironmentName } | undefined;
  return details?.session_environment && details.requested_environment
    ? { from: details.requested_environment, to: details.session_environment }
    : null;
}

export interface ApiErrorActions {
  /** Offered for `no_credentials` when the embedded sandbox is available: one click to connect. */
  onUseDemoCredentials?: () => void;
  useDemoBusy?: boolean;
  /** Offered after no answer (502/504) to a Gift Balance Inquiry: send the same Request Id again. */
  onRetrySameRequestId?: (requestId: string) => void;
  retryBusy?: boolean;
}

/**
 * One console API error as the pages show it, keyed by its code: a title, what to do next, and for each
 * code what its details say (the refused token exchange, the environment that changed, the Request Id a
 * Gift Balance Inquiry without an answer was sent with).
 */
export function ApiErrorAlert({ error, actions = {} }: { error: ApiClientError; actions?: ApiErrorActions }) {
  const [lookup, setLookup] = useState<LookupOutcome | null>(null);
  const pathname = usePathname() ?? "/";
  const title = TITLES[error.code] ?? "The request could not run";
  const exchange = errorExchange(error);
  const change = error.code === "environment_changed" ? environmentChange(error) : null;
  const requestId = isNoAnswerError(error) ? requestIdOfError(error) : null;

  let body: ReactNode;
  let action: ReactNode = null;
  if (error.code === "no_credentials") {
    body = <p>This session has no credentials yet, so there is no token to call the API with.</p>;
    action = (
      <>
        {actions.onUseDemoCredentials ? (
          <Button
            size="sm"
            variant="primary"
            busy={actions.useDemoBusy}
            onClick={actions.onUseDemoCredentials}
          >
            Use demo credentials
          </Button>
        ) : null}
        <Link href="/connect" className={buttonClasses("secondary", "sm")}>
          Go to Connect
        </Link>
      </>
    );
  } else if (error.code === "not_signed_in") {
    body = (
      <p>
        Your session has ended (signed out, idle too long, or at the end of its lifetime). Nothing was sent.
      </p>
    );
    action = (
      <a href={loginUrl(pathname)} className={buttonClasses("primary", "sm")}>
        Sign in again
      </a>
    );
  } else if (error.code === "rate_limited") {
    const wait = retryAfterSeconds(error);
    body = (
      <p>
        {error.message} Nothing was sent.
        {wait !== null ? ` Try again in ${wait} second${wait === 1 ? "" : "s"}.` : " Try again shortly."}
      </p>
    );
  } else if (change) {
    body = (
      <p>
        This page showed <strong>{environmentLabel(change.from)}</strong>, but the session is now on{" "}
        <strong>{environmentLabel(change.to)}</strong>. Nothing was sent. Check the environment in the header
        and run again.
      </p>
    );
  } else if (requestId) {
    body = (
      <>
        <p>{error.message}</p>
        <p>
          The request was sent, but no answer came back: the upstream may or may not have recorded the
          transaction. It is kept in history as &ldquo;outcome unknown&rdquo;. Look it up by its Request Id,
          or retry with the same Request Id (a second transaction is then refused as a duplicate).
        </p>
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium">Request Id</span>
          <CopyableValue value={requestId} name="Request Id" />
        </p>
      </>
    );
    action = (
      <>
        <RequestIdLookupButton requestId={requestId} onOutcome={setLookup} />
        {actions.onRetrySameRequestId ? (
          <Button
            size="sm"
            busy={actions.retryBusy}
            onClick={() => actions.onRetrySameRequestId?.(requestId)}
          >
            Retry with the same Request Id
          </Button>
        ) : null}
      </>
    );
  } else {
    body = <p>{error.message}</p>;
    if (error.code === "token_refused") {
      action = (
        <Link href="/connect" className={buttonClasses("secondary", "sm")}>
          Go to Connect
        </Link>
      );
    }
  }

  return (
    <div className="space-y-4" data-testid="api-error">
      <Alert
        tone="danger"
        role="alert"
        title={title}
        action={action ? <div className="flex flex-wrap gap-2">{action}</div> : null}
      >
        {body}
        <p className="font-mono text-xs opacity-80">
          {error.status ? `HTTP ${error.status} · ` : ""}
          {error.code}
        </p>
        {isNoAnswerError(error) && !requestId ? (
          <p>No response came back, so there is no exchange to show.</p>
        ) : null}
      </Alert>
      {lookup ? (
        <div aria-live="polite">
          <LookupResult outcome={lookup} />
        </div>
      ) : null}
      {exchange ? (
        <>
          <StatusExplanation exchange={exchange} />
          <ExchangeView exchange={exchange} title="The refused token request" defaultOpen />
        </>
      ) : null}
    </div>
  );
}
