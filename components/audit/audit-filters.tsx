"use client";

import { useId, useState, type FormEvent } from "react";
import type { AuditFilters } from "@/lib/client/api-keys";
import { Button } from "@/components/ui/button";
import { Field, inputClasses } from "@/components/ui/field";
import { AUDIT_EVENTS } from "@/lib/shared/audit-events";

const LAST4 = /^\d{4}$/;
const FULL_CARD = /^\d{12,19}$/;

/** A `datetime-local` value (the user's local time) as an ISO instant; empty stays empty. */
function isoFromLocal(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * The audit log's filters. A full card number is used for one search only: it goes to the server in that
 * request's query (where it is hashed and compared by hash) and the field is emptied right after, so it stays
 * neither on screen nor in the page's address.
 */
export function AuditFilterForm({ onSearch }: { onSearch: (filters: AuditFilters) => void }) {
  const id = useId();
  const [user, setUser] = useState("");
  const [event, setEvent] = useState("");
  const [card, setCard] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [cardError, setCardError] = useState<string | null>(null);

  function submit(formEvent: FormEvent) {
    formEvent.preventDefault();
    const digits = card.replace(/[\s-]/g, "");
    if (digits && !LAST4.test(digits) && !FULL_CARD.test(digits)) {
      setCardError("Give the last 4 digits or the whole card number (12 to 19 digits).");
      return;
    }
    setCardError(null);
    onSearch({
      user: user.trim() || undefined,
      event: event.trim() || undefined,
      card: digits || undefined,
      from: isoFromLocal(from),
      to: isoFromLocal(to),
    });
    if (FULL_CARD.test(digits)) setCard("");
  }

  function clear() {
    setUser("");
    setEvent("");
    setCard("");
    setFrom("");
    setTo("");
    setCardError(null);
    onSearch({});
  }

  return (
    <form
      onSubmit={submit}
      className="grid gap-x-4 gap-y-3 sm:grid-cols-2 lg:grid-cols-6"
      aria-label="Audit filters"
    >
      <Field
        id={`${id}-user`}
        label="User"
        value={user}
        onChange={(change) => setUser(change.target.value)}
        placeholder="user id"
        autoComplete="off"
        className="lg:col-span-2"
      />
      <div className="lg:col-span-2">
        <label
          htmlFor={`${id}-event`}
          className="mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200"
        >
          Event
        </label>
        <input
          id={`${id}-event`}
          list={`${id}-events`}
          value={event}
          onChange={(change) => setEvent(change.target.value)}
          placeholder="any event"
          autoComplete="off"
          className={inputClasses}
        />
        <datalist id={`${id}-events`}>
          {AUDIT_EVENTS.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <Field
        id={`${id}-card`}
        label="Card"
        value={card}
        onChange={(change) => setCard(change.target.value)}
        placeholder="last 4 or full number"
        inputMode="numeric"
        autoComplete="off"
        mono
        error={cardError}
        hint="A full number is hashed on the server and cleared from this field after the search."
        className="lg:col-span-2"
      />
      <Field
        id={`${id}-from`}
        label="From (local time)"
        type="datetime-local"
        value={from}
        onChange={(change) => setFrom(change.target.value)}
        className="lg:col-span-2"
      />
      <Field
        id={`${id}-to`}
        label="To (local time)"
        type="datetime-local"
        value={to}
        onChange={(change) => setTo(change.target.value)}
        className="lg:col-span-2"
      />
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-2">
        <Button type="submit" variant="primary">
          Search
        </Button>
        <Button type="button" variant="ghost" onClick={clear}>
          Clear filters
        </Button>
      </div>
    </form>
  );
}
