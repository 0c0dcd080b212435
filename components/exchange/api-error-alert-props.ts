/** What an API error alert is given: the same for the alert and for its per-code view loaded on demand. */
import type { ConsoleErrorLike } from "@/lib/client/api-error-view";

interface ApiErrorActions {
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
