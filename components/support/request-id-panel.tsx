"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import type { ApiClientError } from "@/lib/client/fetcher";
import { useTransactionLookup } from "@/lib/client/use-support-api";
import type { SupportTransactionLookup } from "@/lib/shared/support-contract";
import { dotsLast4, errorTitle } from "./lookup-messages";

type Answer = { result: SupportTransactionLookup } | { error: ApiClientError; requestId: string };

/** Lookup by Request Id: the transaction a Gift Balance Inquiry recorded, as a summary (no raw exchange). */
export function RequestIdPanel() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [requestId, setRequestId] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const { trigger, isMutating } = useTransactionLookup();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = requestId.trim();
    if (!value) {
      setFormError("Enter the Request Id (the X-Request-Id the transaction was sent with).");
      input.current?.focus();
      return;
    }
    setFormError(null);
    try {
      setAnswer({ result: await trigger(value) });
    } catch (error) {
      setAnswer({ error: error as ApiClientError, requestId: value });
    }
  }

  return (
    <Panel
      title="Look up a transaction by Request Id"
      titleId="support-request-id-title"
      description="Finds the transaction a Gift Balance Inquiry recorded: when, its result and the gift balance."
    >
      <form onSubmit={submit} noValidate>
        <Field
          ref={input}
          id={id}
          label="Request Id"
          error={formError}
          value={requestId}
          onChange={(event) => setRequestId(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          maxLength={128}
          mono
          addon={
            <Button type="submit" variant="primary" busy={isMutating}>
              Find
            </Button>
          }
        />
      </form>
      <div className="mt-4" aria-live="polite">
        {answer ? <TransactionAnswer answer={answer} /> : null}
      </div>
    </Panel>
  );
}

function TransactionAnswer({ answer }: { answer: Answer }) {
  if ("error" in answer) {
    return (
      <Alert tone="danger" role="alert" title={errorTitle(answer.error.code)}>
        <p>{answer.error.message}</p>
      </Alert>
    );
  }
  const { result } = answer;
  if (!result.transaction) {
    return (
      <Alert
        tone={result.outcome === "not_found" ? "warning" : "danger"}
        role="alert"
        title={result.outcome === "not_found" ? "No transaction with this Request Id" : "Card service error"}
      >
        <p>
          {result.outcome === "not_found"
            ? `${result.environment} knows no transaction sent with ${result.request_id}. A Balance Inquiry records none.`
            : `The card service answered ${result.upstream_status}; try again in a moment.`}
        </p>
      </Alert>
    );
  }
  return <TransactionFound result={result} transaction={result.transaction} />;
}

function TransactionFound({
  result,
  transaction,
}: {
  result: SupportTransactionLookup;
  transaction: NonNullable<SupportTransactionLookup["transaction"]>;
}) {
  const rows: [string, string][] = [
    ["Time", transaction.time ? formatTime(transaction.time) : "not given"],
    [
      "Result",
      [transaction.response_status, transaction.response_message].filter(Boolean).join(" — ") || "—",
    ],
    ["Gift balance", transaction.gift_balance ?? "—"],
    ["Card", transaction.card_last4 ? dotsLast4(transaction.card_last4) : "—"],
    ["Transaction id", transaction.transaction_id ?? "—"],
  ];
  return (
    <section aria-label="Transaction found" className="space-y-2">
      <h3 className="text-lg font-semibold text-fg">
        Transaction found <span className="text-sm font-normal text-subtle">({result.environment})</span>
      </h3>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className="font-mono break-all text-fg">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function formatTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}
