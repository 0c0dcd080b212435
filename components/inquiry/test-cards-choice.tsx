"use client";

import { useLayoutEffect, useRef, useState } from "react";
import useSWR from "swr";
import { testCardNumberUrl, testCardsKey } from "@/lib/client/api-keys";
import { getJson, requestJson, toApiClientError, type ApiClientError } from "@/lib/client/fetcher";
import { normalizeCardNumber } from "@/lib/shared/card-number";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { TestCardList, TestCardNumber } from "@/lib/shared/test-cards";
import { SelectField } from "@/components/ui/select-field";

/**
 * The cards a user may try in the session's environment, listed masked; the full number of the one chosen is
 * fetched then, so no page or bundle carries one. Nothing shows where the server offers none (production, a
 * sandbox without a profile) or the role may not see them.
 *
 * The choice stays on the card while the field holds its number, so the arrow keys step through the cards; it
 * goes back to its placeholder once the field is edited. `onFilling` says while a number is on its way, so that
 * a run waits for the field to show it.
 */
export function TestCardsChoice({
  environment,
  cardNumber,
  onChoose,
  onFilling,
}: {
  environment: EnvironmentName;
  /** The card field's value: the choice shows the card only while the field holds its number. */
  cardNumber: string;
  onChoose: (cardNumber: string) => void;
  onFilling: (filling: boolean) => void;
}) {
  const { data } = useSWR<TestCardList, ApiClientError>(testCardsKey(environment), getJson, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [chosen, setChosen] = useState<{ id: string; number: string } | null>(null);
  // Only the last choice fills the field: ↓↓ quickly fetches two numbers, and the first may answer last.
  const latest = useRef(0);
  // The number arrives after renders the choice did not see (Run pressed meanwhile): it goes to their handlers.
  const handlers = useRef({ onChoose, onFilling });
  useLayoutEffect(() => {
    handlers.current = { onChoose, onFilling };
  });
  if (!data || data.cards.length === 0) return null;

  const choose = async (id: string) => {
    if (!id) return;
    const attempt = ++latest.current;
    setPending(id);
    setFailure(null);
    handlers.current.onFilling(true);
    try {
      const { card_number } = await requestJson<TestCardNumber>(testCardNumberUrl(id, environment));
      if (attempt !== latest.current) return;
      setChosen({ id, number: normalizeCardNumber(card_number) });
      handlers.current.onChoose(card_number);
    } catch (error) {
      if (attempt === latest.current) setFailure(toApiClientError(error).message);
    } finally {
      if (attempt === latest.current) {
        setPending(null);
        handlers.current.onFilling(false);
      }
    }
  };
  const shown = pending ?? (chosen && normalizeCardNumber(cardNumber) === chosen.number ? chosen.id : "");
  return (
    <div aria-busy={pending !== null}>
      <SelectField id="test-card" label="Test cards" value={shown} onChange={(id) => void choose(id)}>
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
