"use client";

import { useState } from "react";
import type { HistoryRun } from "@/lib/client/history-store";
import type { EnvironmentInfo, ExchangeRecord } from "@/lib/shared/contracts";
import { runsAsHar, runsAsPostmanCollection } from "@/lib/shared/run-export";
import { runTargets } from "@/lib/shared/run-export-targets";
import { useSession } from "@/lib/client/use-session-api";
import { Button } from "@/components/ui/button";
import { runCount, type HistoryNotice } from "./history-notice";
import { offerDownload } from "@/lib/client/download";

/** How many of the runs a Postman export cannot send to this console's environments. */
const cannotRunHere = (exchanges: readonly ExchangeRecord[], here: readonly EnvironmentInfo[]) =>
  runTargets(exchanges, here).runs.filter((run) => run.cannotRun).length;

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
  const { data: session } = useSession();
  const ticked = (runs ?? []).filter((run) => selected.includes(run.id));
  const chosen = ticked.length > 0 ? ticked : shown;
  const which = ticked.length > 0 ? "ticked" : "shown";

  function exportAs(format: "postman" | "har") {
    setBusy(true);
    try {
      const exchanges = chosen.map((run) => run.exchange);
      const name = `card-services-history-${stamp()}`;
      const fileName = format === "postman" ? `${name}.postman_collection.json` : `${name}.har`;
      // Unknown until the session has loaded: then each run goes where it was sent.
      const here = session?.environments;
      const document =
        format === "postman"
          ? runsAsPostmanCollection(exchanges, name, here)
          : runsAsHar(exchanges, "console");
      offerDownload(JSON.stringify(document, null, 2), fileName, "application/json");
      const exported = `Exported the ${which} ${runCount(chosen.length)} as ${fileName}.`;
      const stuck = format === "postman" && here ? cannotRunHere(exchanges, here) : 0;
      onNotice(
        stuck > 0
          ? {
              tone: "warning",
              text:
                `${exported} ${stuck === chosen.length ? "None" : `${stuck} of them`} can run against this ` +
                "console: they were recorded where it has no such environment or token address (another " +
                "console's history). Each is marked “cannot run here” in Postman, with the reason.",
            }
          : { tone: "success", text: exported },
      );
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
