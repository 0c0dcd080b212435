"use client";

import { useId, useState, type FormEvent } from "react";
import type { AuditFilters } from "@/lib/client/api-keys";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { SelectField } from "@/components/ui/select-field";
import { AUDIT_EVENTS } from "@/lib/shared/audit-events";
import { UserCombobox } from "./user-combobox";

const LAST4 = /^\d{4}$/;
const FULL_CARD = /^\d{12,19}$/;

/** An ISO instant as a `datetime-local` value (the user's local time), for filters read back from the URL. */
function localFromIso(value: string | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

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
export function AuditFilterForm({
  initial,
  onSearch,
}: {
  /** The filters the page's address asks for (a shared link). */
  initial: AuditFilters;
  onSearch: (filters: AuditFilters) => void;
}) {
  const id = useId();
  const [user, setUser] = useState(initial.user ?? "");
  const [event, setEvent] = useState(initial.event ?? "");
  const [card, setCard] = useState(initial.card && initial.card.length === 4 ? initial.card : "");
  const [from, setFrom] = useState(localFromIso(initial.from));
  const [to, setTo] = useState(localFromIso(initial.to));
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
      <div className="lg:col-span-2">
        <UserCombobox id={`${id}-user`} value={user} onChange={setUser} />
      </div>
      <div className="lg:col-span-2">
        <SelectField id={`${id}-event`} label="Event" value={event} onChange={setEvent}>
          <option value="">Any event</option>
          {AUDIT_EVENTS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
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
