"use client";

import { onDemand } from "@/lib/client/on-demand";
import { Alert } from "@/components/ui/alert";
import type { ApiErrorAlertProps } from "./api-error-alert-props";
import { ErrorCodeLine } from "./error-code-line";

export type { ApiErrorAlertProps } from "./api-error-alert-props";

/** The title when the console's own API could not be read (the session of a page, for one). */
export const CONSOLE_UNANSWERED_TITLE = "The console API did not answer";

// The per-code view is in no page's first load: it is fetched when the page is idle (or when an error shows
// first), and the alert shows the error's message and code until then, or if it cannot be fetched.
const contentModule = onDemand(() => import("./api-error-alert-content"));

/**
 * One console API error as every page shows it, keyed by its code (see api-error-alert-content.tsx). Until
 * that view has loaded, and if it cannot be (the console is unreachable), the error's message and code.
 */
export function ApiErrorAlert(props: ApiErrorAlertProps) {
  const loaded = contentModule.useModule();
  if (loaded) return <loaded.ApiErrorAlertContent {...props} />;
  const { error, fallbackTitle } = props;
  return (
    <div data-testid="api-error">
      <Alert tone="danger" role="alert" title={fallbackTitle ?? error.message}>
        {fallbackTitle ? <p>{error.message}</p> : null}
        <ErrorCodeLine error={error} />
      </Alert>
    </div>
  );
}
