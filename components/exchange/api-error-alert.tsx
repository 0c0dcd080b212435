"use client";

import { lazy, Suspense } from "react";
import type { ConsoleErrorLike } from "@/lib/client/api-error-view";
import { Alert } from "@/components/ui/alert";
import { ErrorCodeLine } from "./error-code-line";

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

export interface ApiErrorAlertProps {
  error: ConsoleErrorLike;
  actions?: ApiErrorActions;
  /** The title for codes without one of their own, in the page's words ("The replay got no answer"). */
  fallbackTitle?: string;
}

// Loaded when an error is first shown, so that no page's first load carries every code's view.
const ApiErrorAlertContent = lazy(() =>
  import("./api-error-alert-content").then((module) => ({ default: module.ApiErrorAlertContent })),
);

/**
 * One console API error as every page shows it, keyed by its code (see api-error-alert-content.tsx). Until
 * that view has loaded, and if it cannot be (the console is unreachable), the error's message and code.
 */
export function ApiErrorAlert(props: ApiErrorAlertProps) {
  const { error, fallbackTitle } = props;
  return (
    <Suspense
      fallback={
        <div data-testid="api-error">
          <Alert tone="danger" role="alert" title={fallbackTitle ?? error.message}>
            {fallbackTitle ? <p>{error.message}</p> : null}
            <ErrorCodeLine error={error} />
          </Alert>
        </div>
      }
    >
      <ApiErrorAlertContent {...props} />
    </Suspense>
  );
}
