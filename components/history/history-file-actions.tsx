"use client";

import { useId, useRef, useState, type ChangeEvent } from "react";
import { HistoryImportError, historyStore, type HistoryRun } from "@/lib/client/history-store";
import { Button } from "@/components/ui/button";
import { runCount, type HistoryNotice } from "./history-notice";
import { offerDownload } from "@/lib/client/download";

function exportFileName(now = new Date()): string {
  return `card-services-history-${now.toISOString().slice(0, 19).replace(/[:T]/g, "-")}.json`;
}

/**
 * Import a history file, and export what the page shows: the filtered runs when a filter is set, every run
 * otherwise.
 */
export function HistoryFileActions({
  runs,
  filtered,
  filterActive,
  onNotice,
}: {
  runs: readonly HistoryRun[] | undefined;
  filtered: readonly HistoryRun[];
  filterActive: boolean;
  onNotice: (notice: HistoryNotice) => void;
}) {
  const fileId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<"export" | "import" | null>(null);

  async function exportHistory() {
    setBusy("export");
    const exported = filterActive ? filtered : (runs ?? []);
    try {
      const fileName = exportFileName();
      offerDownload(await historyStore().exportRuns(exported), fileName);
      onNotice({
        tone: "success",
        text: filterActive
          ? `Exported the ${exported.length} filtered run${exported.length === 1 ? "" : "s"} (of ${runs?.length ?? 0}) as ${fileName}.`
          : `Exported all ${runCount(exported.length)} as ${fileName}.`,
      });
    } catch (exportError) {
      onNotice({ tone: "danger", text: `Export failed: ${(exportError as Error).message}` });
    } finally {
      setBusy(null);
    }
  }

  async function importHistory(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ""; // the same file can be chosen again
    if (!file) return;
    setBusy("import");
    try {
      const { imported } = await historyStore().importRuns(await file.text());
      onNotice({ tone: "success", text: `Imported ${runCount(imported)} from ${file.name}.` });
    } catch (importError) {
      const message =
        importError instanceof HistoryImportError
          ? importError.message
          : `The file could not be imported: ${(importError as Error).message}`;
      onNotice({ tone: "danger", text: message });
    } finally {
      setBusy(null);
    }
  }

  const hasRuns = Boolean(runs && runs.length > 0);
  return (
    <>
      <input
        ref={fileInput}
        id={fileId}
        type="file"
        accept="application/json,.json"
        hidden
        onChange={(event) => void importHistory(event)}
      />
      <Button onClick={() => fileInput.current?.click()} busy={busy === "import"}>
        Import JSON
      </Button>
      <Button
        onClick={() => void exportHistory()}
        busy={busy === "export"}
        disabled={!hasRuns || (filterActive && filtered.length === 0)}
      >
        {filterActive ? `Export ${filtered.length} filtered` : "Export JSON"}
      </Button>
    </>
  );
}
