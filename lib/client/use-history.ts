import { useEffect } from "react";
import useSWR from "swr";
import type { OperationName, TokenEvent } from "@/lib/shared/contracts";
import { apiKeys } from "./api-keys";
import { historyStore, type HistoryRun } from "./history-store";

/**
 * Every run of the browser's history, newest first, revalidated whenever the store changes (in this tab).
 * All of them: the pages filter and page through the whole history, never a silent first few hundred.
 */
export function useHistoryRuns() {
  const result = useSWR<HistoryRun[], Error>(apiKeys.history, () => historyStore().listRuns());
  const { mutate } = result;
  useEffect(() => historyStore().subscribe(() => void mutate()), [mutate]);
  return result;
}

export function latestRun(runs: HistoryRun[] | undefined, operation: OperationName): HistoryRun | undefined {
  return runs?.find((run) => run.exchange.operation === operation);
}

export interface RecordedTokenEvent extends TokenEvent {
  operation: OperationName;
  runId: string;
}

/** Token events of every run, newest first. */
export function tokenEventsOf(runs: HistoryRun[] | undefined, limit = 20): RecordedTokenEvent[] {
  const events = (runs ?? []).flatMap((run) =>
    run.exchange.token_events.map((event) => ({
      ...event,
      operation: run.exchange.operation,
      runId: run.id,
    })),
  );
  return events.sort((a, b) => Date.parse(b.at) - Date.parse(a.at)).slice(0, limit);
}
