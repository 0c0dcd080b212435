"use client";

import { useState } from "react";
import type { HistoryRun } from "@/lib/client/history-store";
import { runsAsHar, runsAsPostmanCollection } from "@/lib/shared/run-export";
import { Button } from "@/components/ui/button";
import { runCount, type HistoryNotice } from "./history-notice";
import { offerDownload } from "@/lib/client/download";

const stamp = (now = new Date()) => now.toISOString().slice(0, 19).replace(/[:T]/g, "-");

/**
 * Exports runs for other tools: a Postman collection (each run a request as it was sent) or HAR. The ticked
 * runs when some are ticked, else what the page shows (the filtered runs, or every run).
 */
export function HistoryToolExports({
  shown,
  runs,
  selected,
  onNotice,
}: {
  shown: readonly HistoryRun[];
  runs: readonly HistoryRun[] | undefined;
  selected: readonly string[];
  onNotice: (notice: HistoryNotice) => void;
}) {
  const [busy, setBusy] = useState(false);
  const ticked = (runs ?? []).filter((run) => selected.includes(run.id));
  const chosen = ticked.length > 0 ? ticked : shown;
  const which = ticked.length > 0 ? "ticked" : "shown";

  function exportAs(format: "postman" | "har") {
    setBusy(true);
    try {
      const exchanges = chosen.map((run) => run.exchange);
      const name = `card-services-history-${stamp()}`;
      const fileName = format === "postman" ? `${name}.postman_collection.json` : `${name}.har`;
      const document =
        format === "postman" ? runsAsPostmanCollection(exchanges, name) : runsAsHar(exchanges, "console");
      offerDownload(JSON.stringify(document, null, 2), fileName, "application/json");
      onNotice({ tone: "success", text: `Exported the ${which} ${runCount(chosen.length)} as ${fileName}.` });
    } catch (exportError) {
      onNotice({ tone: "danger", text: `Export failed: ${(exportError as Error).message}` });
    } finally {
      setBusy(false);
    }
  }

  const label = ticked.length > 0 ? ` (${ticked.length} ticked)` : "";
  return (
    <>
      <Button onClick={() => exportAs("postman")} busy={busy} disabled={chosen.length === 0}>
        {`Export Postman${label}`}
      </Button>
      <Button onClick={() => exportAs("har")} busy={busy} disabled={chosen.length === 0}>
        {`Export HAR${label}`}
      </Button>
    </>
  );
}
