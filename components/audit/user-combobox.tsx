"use client";

import { useEffect, useId, useState, type KeyboardEvent } from "react";
import useSWR from "swr";
import { cx } from "@/components/ui/class-names";
import { fieldLabelClasses, inputClasses } from "@/components/ui/field";
import { auditUsersKey } from "@/lib/client/api-keys";
import { getJson, type ApiClientError } from "@/lib/client/fetcher";
import type { AuditUserList } from "@/lib/shared/audit-contract";

/** Each search is a read of the log (audited): ask once typing pauses, not per key. */
const SEARCH_PAUSE_MS = 250;

function usePaused(value: string): string {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(value), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return paused;
}

/**
 * The audit filter's User: a searchable combobox over every user the log knows (GET /api/audit/users), not only
 * those in the rows loaded so far. Empty means any user; a typed id that the log does not know is kept as typed.
 */
export function UserCombobox({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (user: string) => void;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const query = usePaused(value);
  const { data, error } = useSWR<AuditUserList, ApiClientError>(open ? auditUsersKey(query) : null, getJson, {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
  const users = data?.users ?? [];

  function choose(user: string) {
    onChange(user);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (users.length === 0 ? -1 : (current + step + users.length) % users.length));
    } else if (event.key === "Enter" && open && active >= 0 && users[active] !== undefined) {
      event.preventDefault();
      choose(users[active]);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  }

  return (
    <div className="relative min-w-0">
      <label htmlFor={id} className={fieldLabelClasses()}>
        User
      </label>
      <input
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        value={value}
        placeholder="Any user (type to search)"
        autoComplete="off"
        spellCheck={false}
        className={inputClasses}
        onChange={(change) => {
          onChange(change.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {open ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Users in the audit log"
          className="absolute z-20 mt-1 max-h-64 w-full overflow-y-auto rounded-md border border-raised bg-panel py-1 text-sm shadow-lg"
        >
          {error ? (
            <li className="px-3 py-1.5 text-danger">{error.message}</li>
          ) : !data ? (
            <li className="px-3 py-1.5 text-muted">Searching…</li>
          ) : users.length === 0 ? (
            <li className="px-3 py-1.5 text-muted">No user in the log matches.</li>
          ) : (
            users.map((user, index) => (
              <li
                key={user}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={cx(
                  "cursor-pointer px-3 py-1.5",
                  index === active ? "bg-indigo-600 text-inverted" : "hover:bg-raised",
                )}
                // Before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(user);
                }}
              >
                {user}
              </li>
            ))
          )}
          {data?.more ? <li className="px-3 py-1.5 text-xs text-muted">More match: type more.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
