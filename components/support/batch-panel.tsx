"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { inputClasses } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { supportKeys, useStartBatch } from "@/lib/client/use-support-api";
import { REASON_KEY } from "./lookup-panel";
import { useSessionValue } from "./session-value";

/** Paste card numbers or choose a CSV; the batch runs on the server and has its own page (a link to come back to). */
export function BatchPanel() {
  const ids = { text: useId(), file: useId(), hint: useId() };
  const router = useRouter();
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { trigger, isMutating } = useStartBatch();
  const storedReason = useSessionValue(REASON_KEY, "");

  async function chooseFile(file: File | undefined) {
    if (!file) return;
    setFileName(file.name);
    setText(await file.text());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setError("Paste card numbers or choose a CSV file first.");
      return;
    }
    setError(null);
    const reason = storedReason.trim();
    try {
      const batch = await trigger({ csv: text, ...(reason ? { reason } : {}) });
      setText("");
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
        <label htmlFor={ids.text} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          Card numbers (one per line, or a CSV with a card_number column)
        </label>
        <textarea
          id={ids.text}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setFileName(null);
          }}
          rows={5}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={ids.hint}
          className={cx(inputClasses, "h-auto py-2 font-mono")}
        />
        <p id={ids.hint} className="text-xs text-slate-600 dark:text-slate-400">
          Spaces and dashes inside a number are fine; lines that are not card numbers are reported by line
          number and skipped.
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor={ids.file} className="text-sm text-slate-700 dark:text-slate-300">
            Or upload a CSV:
          </label>
          <input
            id={ids.file}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            onChange={(event) => void chooseFile(event.target.files?.[0])}
            className="text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm dark:text-slate-300"
          />
          {fileName ? (
            <span className="text-xs text-slate-600 dark:text-slate-400">{fileName} loaded</span>
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
