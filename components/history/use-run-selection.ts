"use client";

import { useCallback, useState } from "react";
import type { HistoryRun } from "@/lib/client/history-store";

/** The runs ticked for a diff: two at most, a third tick replacing the oldest; gone runs drop out. */
export function useRunSelection(runs: readonly HistoryRun[] | undefined) {
  const [selected, setSelected] = useState<string[]>([]);
  const selectedRuns = selected.filter((id) => runs?.some((run) => run.id === id));

  const toggle = useCallback((run: HistoryRun) => {
    setSelected((current) =>
      current.includes(run.id) ? current.filter((id) => id !== run.id) : [...current, run.id].slice(-2),
    );
  }, []);
  const forget = useCallback((id: string) => {
    setSelected((current) => current.filter((selectedId) => selectedId !== id));
  }, []);
  const clear = useCallback(() => setSelected([]), []);

  return { selectedRuns, toggle, forget, clear };
}
