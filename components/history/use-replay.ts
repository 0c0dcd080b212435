"use client";

import { useState } from "react";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { requestCardModes } from "@/lib/shared/exchange-summary";
import { toApiClientError, type ApiClientError } from "@/lib/client/fetcher";
import { replayInput } from "@/lib/client/free-form-draft";
import {
  useLookupTransaction,
  useRequestToken,
  useRunFreeForm,
  useRunInquiry,
} from "@/lib/client/use-console-api";

export type ReplayResult = { record: ExchangeRecord } | { error: ApiClientError } | null;

/**
 * Runs a recorded exchange again: a token request or lookup as recorded, an inquiry with the card number the
 * user typed again and the recorded entry and PIN modes; a free-form request as a free-form request again, its
 * recorded headers and body with the card typed again.
 */
export function useReplay(exchange: ExchangeRecord, form: { location: string; reuse: boolean }) {
  const gift = useRunInquiry("gift_balance_inquiry");
  const balance = useRunInquiry("balance_inquiry");
  const token = useRequestToken();
  const lookup = useLookupTransaction();
  const freeForm = useRunFreeForm();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ReplayResult>(null);
  const originalRequestId = exchange.request_id ?? null;

  async function send(cardNumber: string): Promise<ExchangeRecord> {
    if (exchange.operation === "token") return (await token.trigger({})).exchange;
    const freeFormInput = exchange.free_form
      ? replayInput(exchange, { fullCard: cardNumber || null, reuse: form.reuse })
      : null;
    if (freeFormInput) return freeForm.trigger(freeFormInput);
    if (exchange.operation === "transaction_lookup") return lookup.trigger(originalRequestId ?? "");
    const { entryMode, pinMode } = requestCardModes(exchange);
    const input = {
      card_number: cardNumber,
      location_id: form.location.trim() || "console",
      ...(entryMode ? { entry_mode: entryMode } : {}),
      ...(pinMode ? { pin_mode: pinMode } : {}),
    };
    return exchange.operation === "gift_balance_inquiry"
      ? gift.trigger({
          ...input,
          ...(form.reuse && originalRequestId ? { request_id: originalRequestId } : {}),
        })
      : balance.trigger(input);
  }

  async function replay(cardNumber: string) {
    setBusy(true);
    setResult(null);
    try {
      setResult({ record: await send(cardNumber) });
    } catch (error) {
      setResult({ error: toApiClientError(error) });
    } finally {
      setBusy(false);
    }
  }

  return { busy, result, replay };
}
