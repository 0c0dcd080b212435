"use client";

import { useMemo, useState } from "react";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { maskCardNumber } from "@/lib/client/card-mask";
import { isSuccessStatus } from "@/lib/client/exchange-summary";
import { toApiClientError } from "@/lib/client/fetcher";
import { storeLocationId } from "@/lib/client/preferences";
import { buildSpecComparison, requestIdLookupOf } from "@/lib/client/spec-comparison";
import { useLookupTransaction, useRunInquiry } from "@/lib/client/use-console-api";
import { lookupError, type LookupOutcome } from "@/components/exchange/lookup-button";
import type { RunOutcome } from "./run-result-panel";

export interface RunBothResult {
  gift: RunOutcome;
  balance: RunOutcome;
  card: string;
  /** Memory only, for "Copy as cURL" with the full number; never stored. */
  fullCard: string;
  /** The gift run's Request Id looked up, once both runs are done (null: nothing to look up). */
  lookup: LookupOutcome | null;
}

function toOutcome(result: PromiseSettledResult<ExchangeRecord>): RunOutcome {
  return result.status === "fulfilled"
    ? { record: result.value }
    : { error: toApiClientError(result.reason) };
}

function recordOf(outcome: RunOutcome | null): ExchangeRecord | null {
  return outcome && "record" in outcome ? outcome.record : null;
}

/**
 * Run both's orchestration: a Gift Balance Inquiry and a Balance Inquiry for one card at once, then the gift
 * run's Request Id looked up, and the spec comparison of what came back. The page keeps the form only.
 */
export function useRunBoth() {
  const gift = useRunInquiry("gift_balance_inquiry");
  const balance = useRunInquiry("balance_inquiry");
  const lookup = useLookupTransaction();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RunBothResult | null>(null);

  const giftRecord = recordOf(result?.gift ?? null);
  const balanceRecord = recordOf(result?.balance ?? null);
  const lookupRecord = result?.lookup && "record" in result.lookup ? result.lookup.record : null;
  const comparison = useMemo(
    () =>
      buildSpecComparison(giftRecord, balanceRecord, {
        ...(lookupRecord ? { lookup: requestIdLookupOf(lookupRecord) } : {}),
      }),
    [giftRecord, balanceRecord, lookupRecord],
  );

  async function run({ cardNumber, locationId }: { cardNumber: string; locationId: string }) {
    setBusy(true);
    storeLocationId(locationId);
    const input = { card_number: cardNumber, location_id: locationId };
    // Both at once: each hook saves its run to history when it succeeds.
    const [giftResult, balanceResult] = await Promise.allSettled([
      gift.trigger(input),
      balance.trigger(input),
    ]);
    // Findable by Request Id is verified, not inferred: look the gift run's transaction up (API specification §4.3 item 3).
    // A Balance Inquiry sends no Request Id, so its side stays inferred.
    const giftDone = giftResult.status === "fulfilled" ? giftResult.value : null;
    let lookupOutcome: LookupOutcome | null = null;
    // Also when the answer could not be read (a 2xx whose body is not JSON): the lookup proves or disproves it.
    if (giftDone?.request_id && isSuccessStatus(giftDone.response.status)) {
      try {
        lookupOutcome = { record: await lookup.trigger(giftDone.request_id) };
      } catch (error) {
        lookupOutcome = lookupError(error);
      }
    }
    setResult({
      lookup: lookupOutcome,
      gift: toOutcome(giftResult),
      balance: toOutcome(balanceResult),
      card: maskCardNumber(cardNumber),
      fullCard: cardNumber,
    });
    setBusy(false);
  }

  return { run, busy, result, giftRecord, balanceRecord, comparison };
}
