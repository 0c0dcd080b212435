import { ApiErrorAlert } from "./api-error-alert";
import { LOOKUP_FAILED_TITLE, type LookupOutcome } from "./lookup-button";
import { LookupResult } from "./request-id-lookup";

/** A lookup's outcome: its answer, or the console's error through `<ApiErrorAlert>`. */
export function LookupOutcomeView({
  outcome,
  transactionId,
}: {
  outcome: LookupOutcome;
  /** The Gift Balance Inquiry's transaction_id, to say whether the lookup found that very transaction. */
  transactionId?: string | null;
}) {
  return "error" in outcome ? (
    <ApiErrorAlert error={outcome.error} fallbackTitle={LOOKUP_FAILED_TITLE} />
  ) : (
    <LookupResult record={outcome.record} transactionId={transactionId} />
  );
}
