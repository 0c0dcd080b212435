"use client";

import Link from "next/link";
import { useId, useRef, useState, type FormEvent } from "react";
import { PAGE_ACCESS } from "@/components/team/page-access";
import { useAllows } from "@/components/team/use-me";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import type { ApiClientError } from "@/lib/client/fetcher";
import type { SupportLookupResult } from "@/lib/shared/support-contract";
import { useSupportLookup } from "@/lib/client/use-support-api";
import { BalancesGrid } from "./balances-grid";
import { dotsLast4, errorTitle, OUTCOME_TITLES } from "./lookup-messages";
import { RecentLookups, type RecentLookup } from "./recent-lookups";
import { useSessionValue, writeSessionValue } from "./session-value";

export const REASON_KEY = "support.reason";
const RECENT_KEY = "support.recent";
const MAX_RECENT = 10;

interface Answer {
  result: SupportLookupResult | null;
  error: ApiClientError | null;
  last4: string;
}

/** One box, Enter looks the card up; the box is emptied after every answer (screens get shared). */
export function LookupPanel() {
  const ids = { card: useId(), reason: useId() };
  const input = useRef<HTMLInputElement>(null);
  const [card, setCard] = useState("");
  const reason = useSessionValue(REASON_KEY, "");
  const recent = useSessionValue<RecentLookup[]>(RECENT_KEY, []);
  const [answer, setAnswer] = useState<Answer | null>(null);
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
      if (!keepTyped) setCard("");
      input.current?.focus();
    }
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <Panel title="Look up a card" titleId="support-lookup-title">
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_16rem]" noValidate>
          <Field
            ref={input}
            id={ids.card}
            label="Card number"
            hint="Press Enter to look it up. Balance Inquiry only: nothing is recorded on the card."
            error={formError}
            value={card}
            onChange={(event) => setCard(event.target.value)}
            autoFocus
            autoComplete="off"
            inputMode="numeric"
            spellCheck={false}
            mono
            className="[&_input]:h-12 [&_input]:text-xl"
            addon={
              <Button type="submit" variant="primary" size="lg" busy={isMutating} className="h-12">
                Look up
              </Button>
            }
          />
          <Field
            id={ids.reason}
            label="Reason or ticket"
            hint="Optional; kept for this shift and in the audit log."
            value={reason}
            maxLength={200}
            onChange={(event) => writeSessionValue(REASON_KEY, event.target.value)}
            className="[&_input]:h-12"
          />
        </form>
        <div className="mt-5" aria-live="polite">
          {answer ? <AnswerView answer={answer} /> : null}
        </div>
      </Panel>
      <Panel title="This session" titleId="support-recent-title">
        <RecentLookups lookups={recent} />
      </Panel>
    </div>
  );
}

function AnswerView({ answer }: { answer: Answer }) {
  const card = <span className="font-mono">{dotsLast4(answer.last4)}</span>;
  if (answer.error) {
    const { error } = answer;
    return (
      <Alert
        tone="danger"
        role="alert"
        title={
          <>
            {errorTitle(error.code)} — {card}
          </>
        }
      >
        <p>{error.message}</p>
        {error.code === "no_credentials" ? <NoCredentialsHint /> : null}
      </Alert>
    );
  }
  const result = answer.result!;
  const { title, tone } = OUTCOME_TITLES[result.outcome];
  if (result.outcome === "found" && result.balances) {
    return (
      <section aria-label="Lookup result" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-lg font-semibold text-slate-900 dark:text-white">
            {title} — {card}
          </h3>
          <span className="text-xs text-slate-500 dark:text-slate-400">
            {result.environment} · {new Date(result.looked_up_at).toLocaleTimeString()} · {result.duration_ms}{" "}
            ms
          </span>
        </div>
        <BalancesGrid balances={result.balances} />
        <p className="text-xs text-slate-600 dark:text-slate-400">{result.message}</p>
      </section>
    );
  }
  return (
    <Alert
      tone={tone}
      role="alert"
      title={
        <>
          {title} — {card}
        </>
      }
    >
      <p>{result.message}</p>
    </Alert>
  );
}

/** Connect only for roles that may (support may not: it asks an administrator for server credentials). */
function NoCredentialsHint() {
  const allows = useAllows();
  if (allows && PAGE_ACCESS.connect.allowed(allows)) {
    return (
      <p>
        <Link className="underline" href="/connect">
          Connect
        </Link>{" "}
        first (or ask an administrator to configure server credentials).
      </p>
    );
  }
  return <p>Ask an administrator of the console to configure server credentials for this environment.</p>;
}
