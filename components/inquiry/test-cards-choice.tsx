"use client";

import { useState } from "react";
import useSWR from "swr";
import { testCardNumberUrl, testCardsKey } from "@/lib/client/api-keys";
import { getJson, requestJson, toApiClientError, type ApiClientError } from "@/lib/client/fetcher";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { TestCardList, TestCardNumber } from "@/lib/shared/test-cards";
import { SelectField } from "@/components/ui/select-field";

/**
 * The cards a user may try in the session's environment, listed masked; the full number of the one chosen is
 * fetched then, so no page or bundle carries one. Nothing shows where the server offers none (production, a
 * sandbox without a profile) or the role may not see them.
 */
export function TestCardsChoice({
  environment,
  onChoose,
}: {
  environment: EnvironmentName;
  onChoose: (cardNumber: string) => void;
}) {
  const { data } = useSWR<TestCardList, ApiClientError>(testCardsKey(environment), getJson, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!data || data.cards.length === 0) return null;
  const choose = async (id: string) => {
    if (!id) return;
    setBusy(true);
    setFailure(null);
    try {
      const { card_number } = await requestJson<TestCardNumber>(testCardNumberUrl(id, environment));
      onChoose(card_number);
    } catch (error) {
      setFailure(toApiClientError(error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div aria-busy={busy}>
      <SelectField id="test-card" label="Test cards" value="" onChange={(id) => void choose(id)}>
        <option value="">Fill the card field with…</option>
        {data.cards.map((card) => (
          <option key={card.id} value={card.id}>
            {card.masked} · {card.label}
          </option>
        ))}
      </SelectField>
      {failure ? (
        <p role="alert" className="mt-1 text-xs text-danger">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
