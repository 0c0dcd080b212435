"use client";

import type { ApiClientError } from "@/lib/client/fetcher";
import { statusLine } from "@/lib/client/http-status";
import { isNoAnswerError } from "@/lib/client/outcome-unknown";
import { Alert } from "@/components/ui/alert";
import type { InquiryRun, RetryAttempt } from "./use-inquiry-run";

/** What came of a retry, in words: the page must not look as it did before the retry. */
function outcomeOf(running: boolean, run: InquiryRun | null, error: ApiClientError | null): string {
  if (running) return "Sending it again…";
  if (error) {
    return isNoAnswerError(error)
      ? "No answer again: the outcome is still unknown. Look it up by its Request Id before you retry again."
      : `It could not run: ${error.message}`;
  }
  const status = run?.exchange.response.status;
  if (status === undefined) return "";
  if (status === 409) {
    return (
      "The API refused it as a duplicate (409 Conflict): it had received the first request with this " +
      "Request Id. Look it up by its Request Id to see what it recorded."
    );
  }
  return `The API answered ${statusLine(status)}: the result is below.`;
}

/** Above the result or the error: this was retry N of a Request Id, sent at a time, and what came of it. */
export function RetryNotice({
  retry,
  running,
  run,
  error,
}: {
  retry: RetryAttempt;
  running: boolean;
  run: InquiryRun | null;
  error: ApiClientError | null;
}) {
  const time = retry.at.toLocaleTimeString();
  return (
    <div data-testid="retry-notice">
      <Alert
        tone={error ? "warning" : "info"}
        role="status"
        title={`Retry ${retry.number} with the same Request Id, sent at ${time}`}
      >
        <p>{outcomeOf(running, run, error)}</p>
        <p className="font-mono text-xs wrap-anywhere">{retry.requestId}</p>
      </Alert>
    </div>
  );
}
