"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";
import { loginUrl } from "@/lib/client/api-keys";
import { describeApiError } from "@/lib/client/api-error-view";
import { environmentLabel } from "@/lib/client/environments";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import type { ApiErrorAlertProps } from "./api-error-alert-props";
import { CopyableValue } from "./copy-button";
import { ErrorCodeLine } from "./error-code-line";
import { ExchangeView } from "./exchange-view";
import { LOOKUP_FAILED_TITLE, RequestIdLookupButton, type LookupOutcome } from "./lookup-button";
import { LookupResult } from "./request-id-lookup";
import { StatusExplanation } from "./status-explanation";

/**
 * What `<ApiErrorAlert>` shows once loaded, keyed by the error's code (lib/client/api-error-view.ts): a title,
 * what to do next, and for each code what its typed details say (the refused token exchange, the environment
 * that changed, the Request Id a Gift Balance Inquiry without an answer was sent with).
 */
export function ApiErrorAlertContent({ error, actions = {}, fallbackTitle }: ApiErrorAlertProps) {
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
        actionBelow={view.kind === "no_answer_with_request_id"}
      >
        {body}
        <ErrorCodeLine error={error} />
        {noAnswer && view.kind !== "no_answer_with_request_id" ? (
          <p>No response came back, so there is no exchange to show.</p>
        ) : null}
      </Alert>
      {lookup ? (
        <div aria-live="polite">
          {"error" in lookup ? (
            <ApiErrorAlertContent error={lookup.error} fallbackTitle={LOOKUP_FAILED_TITLE} />
          ) : (
            <LookupResult record={lookup.record} />
          )}
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
