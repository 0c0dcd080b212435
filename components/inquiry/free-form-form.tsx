"use client";

import { useState, type FormEvent } from "react";
import type { FreeFormRequestInput } from "@/lib/shared/contracts";
import { draftToInput, type FreeFormDraft } from "@/lib/client/free-form-draft";
import { Button } from "@/components/ui/button";
import { draftIsSendable, RequestEditor } from "./request-editor";

/**
 * "Edit request" mode of /inquiry: the editor and its Send, in place of the form. The answer shows where the
 * form's would, through the same guarded run (a Gift Balance Inquiry in production asks first).
 */
export function FreeFormForm({
  draft,
  onChange,
  onLeave,
  onSend,
  busy,
  refused,
  production,
}: {
  draft: FreeFormDraft;
  onChange: (draft: FreeFormDraft) => void;
  onLeave: () => void;
  onSend: (input: FreeFormRequestInput) => void;
  busy: boolean;
  refused: { header: string; message: string } | null;
  production: boolean;
}) {
  const [notes, setNotes] = useState<string[]>([]);
  const sendable = draftIsSendable(draft);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sendable) onSend(draftToInput(draft));
  }
  return (
    <form data-run-shortcut noValidate onSubmit={submit} className="space-y-4" aria-label="Request editor">
      <RequestEditor draft={draft} onChange={onChange} refused={refused} notes={notes} onNotes={setNotes} />
      <div className="flex flex-wrap items-center gap-2 border-t border-default pt-4">
        <Button
          type="submit"
          variant={production && draft.operation === "gift_balance_inquiry" ? "danger" : "primary"}
          size="lg"
          busy={busy}
          disabled={!sendable}
          className="grow"
        >
          Send request
        </Button>
        <Button variant="ghost" size="lg" onClick={onLeave}>
          Back to the form
        </Button>
      </div>
      {sendable ? null : (
        <p className="text-xs text-muted">
          Fix what is flagged above to send
          {draft.operation === "lookup_transaction" ? " (a lookup needs its Request Id)" : ""}.
        </p>
      )}
    </form>
  );
}
