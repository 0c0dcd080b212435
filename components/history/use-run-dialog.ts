"use client";

import { useState } from "react";
import type { HistoryRun } from "@/lib/client/history-store";

/** What the run dialog shows: a run opened, or a replay of it (with its Request Id again or a new one). */
export type RunDialogState =
  { kind: "open"; id: string } | { kind: "replay"; id: string; reuseRequestId: boolean } | null;

/**
 * The run dialog's state: one opened from the table, or else the run the URL names (?run=…, e.g. from
 * Compare). Opening and closing a run keeps ?run= in step, so an open run can be linked to.
 */
export function useRunDialog({
  runs,
  urlRunId,
  setUrlRunId,
}: {
  runs: readonly HistoryRun[] | undefined;
  urlRunId: string | null;
  setUrlRunId: (id: string | null) => void;
}) {
  const [dialog, setDialog] = useState<RunDialogState>(null);
  const shown: RunDialogState = dialog ?? (urlRunId ? { kind: "open", id: urlRunId } : null);
  const shownRun = shown ? (runs?.find((run) => run.id === shown.id) ?? null) : null;

  return {
    shown,
    shownRun,
    openRun(id: string) {
      setDialog({ kind: "open", id });
      setUrlRunId(id);
    },
    replayRun(id: string, reuseRequestId: boolean) {
      setDialog({ kind: "replay", id, reuseRequestId });
    },
    close() {
      setDialog(null);
      setUrlRunId(null);
    },
  };
}
