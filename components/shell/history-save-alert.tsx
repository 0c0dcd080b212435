"use client";

import { useSyncExternalStore } from "react";
import {
  dismissHistorySaveFailures,
  historySaveFailures,
  subscribeHistorySaveFailures,
} from "@/lib/client/history-save-status";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

const none: readonly never[] = [];

/** Says which runs could not be written to the browser's history: a run is never lost silently. */
export function HistorySaveAlert() {
  const failures = useSyncExternalStore(subscribeHistorySaveFailures, historySaveFailures, () => none);
  if (failures.length === 0) return null;
  return (
    <div className="fixed bottom-4 left-4 z-40 w-[min(28rem,calc(100vw-2rem))] rounded-lg bg-panel shadow-lg">
      <Alert
        tone="danger"
        role="alert"
        title={`${failures.length === 1 ? "A run was" : `${failures.length} runs were`} not saved to history`}
        action={
          <Button size="sm" variant="ghost" onClick={dismissHistorySaveFailures}>
            Dismiss
          </Button>
        }
      >
        <ul className="list-disc pl-5">
          {failures.map((failure) => (
            <li key={failure.id}>
              {failure.what}: {failure.message}
            </li>
          ))}
        </ul>
        <p>The result stays on this page; export or copy it now if you need to keep it.</p>
      </Alert>
    </div>
  );
}
