"use client";

import { useId, useState } from "react";
import { parseCurlCommand } from "@/lib/shared/curl-command";
import {
  bodyBytes,
  headerProblems,
  MAX_FREE_FORM_BODY_BYTES,
  type FreeFormOperation,
} from "@/lib/shared/free-form";
import { draftFromCurl, headerRow, type FreeFormDraft, type HeaderRow } from "@/lib/client/free-form-draft";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { Field, fieldLabelClasses, inputClasses } from "@/components/ui/field";
import { SelectField } from "@/components/ui/select-field";

/** Name, value and remove side by side; on a phone the value goes below its name. */
const ROW_GRID =
  "grid grid-cols-[minmax(0,1fr)_2.25rem] gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_2.25rem]";
const VALUE_CELL = "order-3 sm:order-none";

const OPERATION_LABELS: Record<FreeFormOperation, string> = {
  gift_balance_inquiry: "Gift Balance Inquiry · POST",
  balance_inquiry: "Balance Inquiry · POST",
  lookup_transaction: "Lookup by Request Id · GET",
};

/** Each row's problem: the shared rule the server applies, or the server's own message for that header. */
function rowProblems(rows: readonly HeaderRow[], refused: { header: string; message: string } | null) {
  const problems = new Map<string, string>();
  for (const row of rows) {
    if (!row.name.trim() && !row.value) continue;
    const found = headerProblems({ [row.name.trim()]: row.value })[0];
    if (found) problems.set(row.key, found.message);
    else if (refused && refused.header.toLowerCase() === row.name.trim().toLowerCase())
      problems.set(row.key, refused.message);
  }
  const seen = new Map<string, string>();
  for (const row of rows) {
    const name = row.name.trim().toLowerCase();
    if (name && seen.has(name) && !problems.has(row.key))
      problems.set(row.key, `The header ${row.name.trim()} is given twice.`);
    if (name) seen.set(name, row.key);
  }
  return problems;
}

/** Whether the draft may be sent: no header the console would refuse, a body within its bound. */
export function draftIsSendable(draft: FreeFormDraft): boolean {
  return (
    rowProblems(draft.headers, null).size === 0 &&
    draft.headers.filter((row) => row.name.trim()).length <= 32 &&
    bodyBytes(draft.body) <= MAX_FREE_FORM_BODY_BYTES &&
    (draft.operation !== "lookup_transaction" || draft.lookupId.trim() !== "")
  );
}

function HeaderRows({
  rows,
  onChange,
  refused,
}: {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  refused: { header: string; message: string } | null;
}) {
  const problems = rowProblems(rows, refused);
  const update = (key: string, change: Partial<HeaderRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <ul className="space-y-2" aria-label="Headers">
      <li className={ROW_GRID}>
        <input
          className={cx(inputClasses, "font-mono")}
          value="Authorization"
          disabled
          aria-label="Header name"
        />
        <input
          className={cx(inputClasses, VALUE_CELL, "font-mono")}
          value="Bearer (the console's token)"
          disabled
          aria-label="Authorization value: the console's token, not editable"
        />
        <span aria-hidden="true" className="order-2 sm:order-none" />
      </li>
      {rows.map((row, index) => {
        const problem = problems.get(row.key);
        const problemId = `${row.key}-problem`;
        return (
          <li key={row.key}>
            <div className={ROW_GRID}>
              <input
                className={cx(inputClasses, "font-mono")}
                value={row.name}
                placeholder="Name"
                spellCheck={false}
                aria-label={`Header ${index + 1} name`}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? problemId : undefined}
                onChange={(event) => update(row.key, { name: event.target.value })}
              />
              <input
                className={cx(inputClasses, VALUE_CELL, "font-mono")}
                value={row.value}
                placeholder="Value"
                spellCheck={false}
                aria-label={`Header ${index + 1} value`}
                onChange={(event) => update(row.key, { value: event.target.value })}
              />
              <Button
                variant="ghost-danger"
                iconOnly
                aria-label={`Remove header ${row.name || index + 1}`}
                onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
              >
                ×
              </Button>
            </div>
            {problem ? (
              <p id={problemId} role="alert" className="mt-1 text-xs text-danger">
                {problem}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function CurlPaste({ onFill }: { onFill: (draft: FreeFormDraft, notes: string[]) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  if (!open) {
    return (
      <Button size="sm" onClick={() => setOpen(true)}>
        Paste a cURL command
      </Button>
    );
  }
  function fill() {
    const parsed = parseCurlCommand(text);
    if (!parsed.ok) return setMessage(parsed.message);
    setMessage(null);
    setOpen(false);
    setText("");
    onFill(draftFromCurl(parsed), parsed.notes);
  }
  return (
    <div className="space-y-2 rounded-lg border border-default p-3">
      <label htmlFor={id} className={fieldLabelClasses()}>
        cURL command
      </label>
      <textarea
        id={id}
        rows={5}
        value={text}
        spellCheck={false}
        onChange={(event) => setText(event.target.value)}
        placeholder="curl -X POST https://…/transaction/v1/balance-inquiry -H 'Content-Type: application/json' -d '{…}'"
        className={cx(inputClasses, "h-auto py-2 font-mono text-xs")}
      />
      {message ? (
        <p role="alert" className="text-xs text-danger">
          {message}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="primary" onClick={fill}>
          Fill the editor
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

function BodyField({ draft, onChange }: { draft: FreeFormDraft; onChange: (body: string) => void }) {
  const id = useId();
  const bytes = bodyBytes(draft.body);
  const tooLarge = bytes > MAX_FREE_FORM_BODY_BYTES;
  return (
    <div>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          Body
        </label>
        <span className={cx("text-xs", tooLarge ? "text-danger" : "text-muted")}>
          {bytes.toLocaleString("en-US")} / {MAX_FREE_FORM_BODY_BYTES.toLocaleString("en-US")} bytes
        </span>
      </div>
      <textarea
        id={id}
        rows={12}
        value={draft.body}
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-hint`}
        className={cx(inputClasses, "h-auto py-2 font-mono text-xs")}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
        Sent byte for byte, even when it is not valid JSON.
      </p>
    </div>
  );
}

/**
 * The request editor of /inquiry: exactly the headers and body that will go out, editable (the token aside),
 * filled from the form or a pasted cURL command. Refused headers are flagged before sending, with the
 * message the server would answer.
 */
export function RequestEditor({
  draft,
  onChange,
  refused,
  notes,
  onNotes,
}: {
  draft: FreeFormDraft;
  onChange: (draft: FreeFormDraft) => void;
  /** The server's `header_not_allowed` of the last send, shown on its row. */
  refused: { header: string; message: string } | null;
  notes: string[];
  onNotes: (notes: string[]) => void;
}) {
  const ids = { operation: useId(), lookup: useId() };
  const set = (change: Partial<FreeFormDraft>) => onChange({ ...draft, ...change });
  return (
    <div className="space-y-4">
      <CurlPaste
        onFill={(filled, filledNotes) => {
          onChange(filled);
          onNotes(filledNotes);
        }}
      />
      {notes.length > 0 ? (
        <Alert tone="info" title="Filled from the cURL command">
          <ul className="list-disc pl-4">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <SelectField
        id={ids.operation}
        label="Operation"
        value={draft.operation}
        onChange={(value) => set({ operation: value as FreeFormOperation })}
      >
        {(Object.keys(OPERATION_LABELS) as FreeFormOperation[]).map((operation) => (
          <option key={operation} value={operation}>
            {OPERATION_LABELS[operation]}
          </option>
        ))}
      </SelectField>
      {draft.operation === "lookup_transaction" ? (
        <Field
          id={ids.lookup}
          label="Request Id"
          mono
          value={draft.lookupId}
          hint="The path's id: /transaction/v1/transactions/request-id/{Request Id}"
          onChange={(event) => set({ lookupId: event.target.value })}
        />
      ) : null}
      <div>
        <p className={fieldLabelClasses()}>Headers</p>
        <HeaderRows rows={draft.headers} onChange={(headers) => set({ headers })} refused={refused} />
        <Button
          size="sm"
          variant="ghost"
          className="mt-2"
          onClick={() => set({ headers: [...draft.headers, headerRow()] })}
        >
          Add header
        </Button>
      </div>
      {draft.operation === "lookup_transaction" ? null : (
        <BodyField draft={draft} onChange={(body) => set({ body })} />
      )}
    </div>
  );
}
