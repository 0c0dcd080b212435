"use client";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** What an action on the whole history (import, export, clear, delete) reports. */
export type HistoryNotice = { tone: "success" | "warning" | "danger"; text: string } | null;

/** Counted noun: "1 run", "3 runs". */
export function runCount(count: number): string {
  return `${count} run${count === 1 ? "" : "s"}`;
}

/** A toast, not a banner: a notice appearing must not push the table down. */
export function HistoryNoticeToast({ notice, onDismiss }: { notice: HistoryNotice; onDismiss: () => void }) {
  return (
    <div aria-live="polite" className="fixed right-4 bottom-4 z-40 w-[min(28rem,calc(100vw-2rem))]">
      {notice ? (
        // Solid backing: the dark tones are translucent.
        <div className="rounded-lg bg-panel shadow-lg">
          <Alert
            tone={notice.tone}
            title={notice.text}
            role={notice.tone === "danger" ? "alert" : "status"}
            action={
              <Button size="sm" variant="ghost" onClick={onDismiss}>
                Dismiss
              </Button>
            }
          />
        </div>
      ) : null}
    </div>
  );
}
