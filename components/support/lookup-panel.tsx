"use client";

import Link from "next/link";
import { useId, useRef } from "react";
import { PAGE_ACCESS } from "@/components/team/page-access";
import { useAllows } from "@/components/team/use-me";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { Spinner } from "@/components/ui/spinner";
import { BalancesGrid } from "./balances-grid";
import { dotsLast4, errorTitle, OUTCOME_TITLES } from "./lookup-messages";
import { RecentLookups } from "./recent-lookups";
import { writeSessionValue } from "./session-value";
import { REASON_KEY, useCardLookup, type LookupAnswer } from "./use-card-lookup";

/** One box, Enter looks the card up; the box is emptied after every answer (screens get shared). */
export function LookupPanel() {
  const ids = { card: useId(), reason: useId() };
  const input = useRef<HTMLInputElement>(null);
  const { card, setCard, reason, recent, answer, pending, formError, isMutating, submit } =
    useCardLookup(input);

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
          {pending ? (
            <p className="flex items-center gap-2 text-lg text-body" role="status">
              <Spinner />
              <span>
                Looking up <span className="font-mono">{dotsLast4(pending)}</span>…
              </span>
            </p>
          ) : answer ? (
            <AnswerView answer={answer} />
          ) : null}
        </div>
      </Panel>
      <Panel title="This session" titleId="support-recent-title">
        <RecentLookups lookups={recent} />
      </Panel>
    </div>
  );
}

function AnswerView({ answer }: { answer: LookupAnswer }) {
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
          <h3 className="text-lg font-semibold text-fg">
            {title} — {card}
          </h3>
          <span className="text-xs text-subtle">
            {result.environment} · {new Date(result.looked_up_at).toLocaleTimeString()} · {result.duration_ms}{" "}
            ms
          </span>
        </div>
        <BalancesGrid balances={result.balances} />
        <p className="text-xs text-muted">{result.message}</p>
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
