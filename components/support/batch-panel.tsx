"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { inputClasses } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { supportKeys, useStartBatch } from "@/lib/client/use-support-api";
import { REASON_KEY } from "./use-card-lookup";
import { useSessionValue } from "./session-value";

interface ChosenFile {
  name: string;
  text: string;
  /** Non-empty lines, header included: what the agent can check against the file without seeing a number. */
  lines: number;
}

/**
 * Paste card numbers or choose a CSV; the batch runs on the server and has its own page (a link to come back to).
 * A chosen file is sent as it is and shown by name and size only: its numbers never appear on this last-4 desk.
 */
export function BatchPanel() {
  const ids = { text: useId(), file: useId(), hint: useId() };
  const router = useRouter();
  const [text, setText] = useState("");
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { trigger, isMutating } = useStartBatch();
  const storedReason = useSessionValue(REASON_KEY, "");

  async function chooseFile(chosen: File | undefined) {
    if (!chosen) return;
    const content = await chosen.text();
    setFile({
      name: chosen.name,
      text: content,
      lines: content.split(/\r?\n/).filter((line) => line.trim()).length,
    });
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const csv = file ? file.text : text;
    if (!csv.trim()) {
      setError("Paste card numbers or choose a CSV file first.");
      return;
    }
    setError(null);
    const reason = storedReason.trim();
    try {
      const batch = await trigger({ csv, ...(reason ? { reason } : {}) });
      setText("");
      setFile(null);
      router.push(supportKeys.batchPage(batch.id));
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <Panel
      title="Batch"
      titleId="support-batch-title"
      description="Many cards at once, run on the server: you can close this tab and come back by the batch's link."
    >
      <form onSubmit={submit} className="space-y-3">
        <label htmlFor={ids.text} className="block text-sm font-medium text-fg">
          Card numbers (one per line, or a CSV with a card_number column)
        </label>
        <textarea
          id={ids.text}
          value={text}
          onChange={(event) => setText(event.target.value)}
          disabled={file !== null}
          rows={5}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={ids.hint}
          className={cx(inputClasses, "h-auto py-2 font-mono")}
        />
        <p id={ids.hint} className="text-xs text-muted">
          Spaces and dashes inside a number are fine; lines that are not card numbers are reported by line
          number and skipped.
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor={ids.file} className="text-sm text-body">
            Or upload a CSV:
          </label>
          <input
            id={ids.file}
            ref={fileInput}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            onChange={(event) => void chooseFile(event.target.files?.[0])}
            className="text-sm text-body file:mr-3 file:rounded-md file:border file:border-field file:bg-panel file:px-3 file:py-1.5 file:text-sm file:text-fg"
          />
          {file ? (
            <span className="flex items-center gap-2 text-sm text-body" role="status">
              <span>
                <span className="font-medium">{file.name}</span>: {file.lines} line
                {file.lines === 1 ? "" : "s"} (a header line included, if it has one) — numbers not shown
              </span>
              <Button
                variant="secondary"
                onClick={() => {
                  setFile(null);
                  if (fileInput.current) fileInput.current.value = "";
                }}
              >
                Remove file
              </Button>
            </span>
          ) : null}
          <Button type="submit" variant="primary" busy={isMutating} className="ml-auto">
            Start batch
          </Button>
        </div>
        {error ? (
          <Alert tone="danger" role="alert" title="The batch did not start">
            {error}
          </Alert>
        ) : null}
      </form>
    </Panel>
  );
}
