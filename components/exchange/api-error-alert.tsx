"use client";

import { Component, lazy, Suspense, type ReactNode } from "react";
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

// Not in any page's first load: fetched once the page is idle, so that an error rarely waits for it.
const loadContent = () => import("./api-error-alert-content");
const ApiErrorAlertContent = lazy(() =>
  loadContent().then((module) => ({ default: module.ApiErrorAlertContent })),
);
if (typeof window !== "undefined") {
  const whenIdle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 1));
  whenIdle(() => void loadContent().catch(() => undefined));
}

/** Shows `fallback` instead when the per-code view could not be loaded (the console unreachable, say). */
class LoadFailureBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * One console API error as every page shows it, keyed by its code (see api-error-alert-content.tsx). Until
 * that view has loaded, and if it cannot be (the console is unreachable), the error's message and code.
 */
export function ApiErrorAlert(props: ApiErrorAlertProps) {
  const { error, fallbackTitle } = props;
  const plain = (
    <div data-testid="api-error">
      <Alert tone="danger" role="alert" title={fallbackTitle ?? error.message}>
        {fallbackTitle ? <p>{error.message}</p> : null}
        <ErrorCodeLine error={error} />
      </Alert>
    </div>
  );
  return (
    <LoadFailureBoundary fallback={plain}>
      <Suspense fallback={plain}>
        <ApiErrorAlertContent {...props} />
      </Suspense>
    </LoadFailureBoundary>
  );
}
