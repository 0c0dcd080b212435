"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { loginUrl } from "@/lib/client/api-keys";
import { describeApiError, type ConsoleErrorLike } from "@/lib/client/api-error-view";
import { environmentLabel } from "@/lib/client/environments";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { CopyableValue } from "./copy-button";
import { LOOKUP_FAILED_TITLE, RequestIdLookupButton, type LookupOutcome } from "./lookup-button";

// Shown only after an answer came (a lookup, a refused token request): loaded then, so that every page's
// alert stays light in its first load.
const LookupResult = lazy(() =>
  import("./request-id-lookup").then((module) => ({ default: module.LookupResult })),
);
const RefusedExchange = lazy(() =>
  import("./refused-exchange").then((module) => ({ default: module.RefusedExchange })),
);

/** The title when the console's own API could not be read (the session of a page, for one). */
export const CONSOLE_UNANSWERED_TITLE = "The console API did not answer";

export interface ApiErrorActions {
  /** Offered for `no_credentials` when the embedded sandbox is available: one click to connect. */
  onUseDemoCredentials?: () => void;
  useDemoBusy?: boolean;
  /** Offered after no answer (502/504) to a Gift Balance Inquiry: send the same Request Id again. */
  onRetrySameRequestId?: (requestId: string) => void;
  retryBusy?: boolean;
}

/**
 * One console API error as the pages show it, keyed by its code (lib/client/api-error-view.ts): a title, what
 * to do next, and for each code what its typed details say (the refused token exchange, the environment that
 * changed, the Request Id a Gift Balance Inquiry without an answer was sent with).
 */
export function ApiErrorAlert({
  error,
  actions = {},
  fallbackTitle,
}: {
  error: ConsoleErrorLike;
  actions?: ApiErrorActions;
  /** The title for codes without one of their own, in the page's words ("The replay got no answer"). */
  fallbackTitle?: string;
}) {
  const [lookup, setLookup] = useState<LookupOutcome | null>(null);
  const pathname = usePathname() ?? "/";
  const { title, body: view, exchange, noAnswer } = describeApiError(error, fallbackTitle);

  let body: ReactNode;
  let action: ReactNode = null;
  switch (view.kind) {
    case "no_credentials":
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
      break;
    case "not_signed_in":
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
      break;
    case "rate_limited": {
      const wait = view.retryAfterSeconds;
      body = (
        <p>
          {error.message} Nothing was sent.
          {wait !== null ? ` Try again in ${wait} second${wait === 1 ? "" : "s"}.` : " Try again shortly."}
        </p>
      );
      break;
    }
    case "environment_changed":
      body = (
        <p>
          This page showed <strong>{environmentLabel(view.from)}</strong>, but the session is now on{" "}
          <strong>{environmentLabel(view.to)}</strong>. Nothing was sent. Check the environment in the header
          and run again.
        </p>
      );
      break;
    case "no_answer_with_request_id": {
      const { requestId } = view;
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
      break;
    }
    case "message":
      body = <p>{error.message}</p>;
      if (view.connectLink) {
        action = (
          <Link href="/connect" className={buttonClasses("secondary", "sm")}>
            Go to Connect
          </Link>
        );
      }
      break;
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
        {noAnswer && view.kind !== "no_answer_with_request_id" ? (
          <p>No response came back, so there is no exchange to show.</p>
        ) : null}
      </Alert>
      {lookup ? (
        <div aria-live="polite">
          {"error" in lookup ? (
            <ApiErrorAlert error={lookup.error} fallbackTitle={LOOKUP_FAILED_TITLE} />
          ) : (
            <Suspense fallback={null}>
              <LookupResult record={lookup.record} />
            </Suspense>
          )}
        </div>
      ) : null}
      {exchange ? (
        <Suspense fallback={null}>
          <RefusedExchange exchange={exchange} />
        </Suspense>
      ) : null}
    </div>
  );
}
