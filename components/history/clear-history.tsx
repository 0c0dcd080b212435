"use client";

import { useState } from "react";
import { historyStore } from "@/lib/client/history-store";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { runCount, type HistoryNotice } from "./history-notice";

/** Clear…, confirmed first: deletes every run kept in this browser, or says why nothing was deleted. */
export function ClearHistory({
  count,
  onCleared,
  onNotice,
}: {
  /** Runs kept now (the button is disabled without any). */
  count: number;
  onCleared: () => void;
  onNotice: (notice: HistoryNotice) => void;
}) {
  const [confirming, setConfirming] = useState(false);

  async function clearHistory() {
    setConfirming(false);
    try {
      await historyStore().clearRuns();
    } catch (clearError) {
      onNotice({
        tone: "danger",
        text: `The history could not be cleared: ${(clearError as Error).message}. Nothing was deleted.`,
      });
      return;
    }
    onCleared();
    onNotice({ tone: "success", text: `Deleted ${runCount(count)} from this browser.` });
  }

  return (
    <>
      <Button variant="danger" onClick={() => setConfirming(true)} disabled={count === 0}>
        Clear…
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Clear the history?"
        confirmLabel={`Delete ${runCount(count)}`}
        onConfirm={() => void clearHistory()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Every run kept in this browser is deleted. This cannot be undone: export the history first if you
          need it as evidence.
        </p>
      </ConfirmDialog>
    </>
  );
}
