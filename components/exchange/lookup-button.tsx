"use client";

import { useState } from "react";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { toApiClientError, type ApiClientError } from "@/lib/client/fetcher";
import { useLookupTransaction } from "@/lib/client/use-console-api";
import { Button } from "@/components/ui/button";

/** The title of `<ApiErrorAlert>` when a lookup got the console's error instead of an answer. */
export const LOOKUP_FAILED_TITLE = "The lookup got no answer";

/** What a lookup (or its attempt) produced: the record, or the console's error when nothing answered. */
export type LookupOutcome = { record: ExchangeRecord } | { error: ApiClientError };

export function lookupError(error: unknown): LookupOutcome {
  return { error: toApiClientError(error) };
}

/**
 * "Look up by Request Id" for one Gift Balance Inquiry; the caller shows the outcome (LookupOutcomeView).
 * Apart from the answer's view (request-id-lookup.tsx), so that an error alert offering it stays light.
 */
export function RequestIdLookupButton({
  requestId,
  onOutcome,
}: {
  requestId: string;
  onOutcome: (outcome: LookupOutcome) => void;
}) {
  const lookup = useLookupTransaction();
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      onOutcome({ record: await lookup.trigger(requestId) });
    } catch (error) {
      onOutcome(lookupError(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button size="sm" busy={busy} onClick={() => void run()}>
      Look up by Request Id
    </Button>
  );
}
