"use client";

import { useState, type FormEvent, type RefObject } from "react";
import type { ApiClientError } from "@/lib/client/fetcher";
import type { SupportLookupResult } from "@/lib/shared/support-contract";
import { useSupportLookup } from "@/lib/client/use-support-api";
import { errorTitle, OUTCOME_TITLES } from "./lookup-messages";
import type { RecentLookup } from "./recent-lookups";
import { useSessionValue, writeSessionValue } from "./session-value";

export const REASON_KEY = "support.reason";
const RECENT_KEY = "support.recent";
const MAX_RECENT = 10;

export interface LookupAnswer {
  result: SupportLookupResult | null;
  error: ApiClientError | null;
  last4: string;
}

/**
 * The card box's state and its submit: a lookup with the shift's reason, remembered (masked) in this tab's
 * recent list; the box is emptied after every answer, except when the session ended (it is typed again after).
 */
export function useCardLookup(input: RefObject<HTMLInputElement | null>) {
  const [card, setCard] = useState("");
  const reason = useSessionValue(REASON_KEY, "");
  const recent = useSessionValue<RecentLookup[]>(RECENT_KEY, []);
  const [answer, setAnswer] = useState<LookupAnswer | null>(null);
  /** The last 4 of the card being looked up, while its answer is awaited. */
  const [pending, setPending] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { trigger, isMutating } = useSupportLookup();

  // The reason is kept for the shift (this tab's session); the recent list too, masked.
  function remember(entry: RecentLookup) {
    writeSessionValue(RECENT_KEY, [entry, ...recent].slice(0, MAX_RECENT));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const digits = card.replace(/[\s-]/g, "");
    if (!/^\d{12,19}$/.test(digits)) {
      setFormError("A card number has 12 to 19 digits (spaces and dashes are fine).");
      input.current?.focus();
      return;
    }
    setFormError(null);
    const last4 = digits.slice(-4);
    let keepTyped = false;
    // The previous card's balances go at once: under the new number they could be read out as its own.
    setAnswer(null);
    setPending(last4);
    try {
      const result = await trigger({
        card_number: digits,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      setAnswer({ result, error: null, last4 });
      remember({
        last4,
        outcome: result.outcome,
        title: OUTCOME_TITLES[result.outcome].title,
        gift: result.balances?.gift ?? null,
        at: result.looked_up_at,
      });
    } catch (error) {
      const failure = error as ApiClientError;
      // The session is over: the shell hides the page; the typed card stays for after signing in again.
      if (failure.code === "not_signed_in") {
        keepTyped = true;
        return;
      }
      setAnswer({ result: null, error: failure, last4 });
      remember({
        last4,
        outcome: "error",
        title: errorTitle(failure.code),
        gift: null,
        at: new Date().toISOString(),
      });
    } finally {
      setPending(null);
      if (!keepTyped) setCard("");
      input.current?.focus();
    }
  }

  return { card, setCard, reason, recent, answer, pending, formError, isMutating, submit };
}
