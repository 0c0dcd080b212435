"use client";

import { useRef, useState, type ReactNode } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/**
 * The one guard in front of a run: a synchronous lock (a ref, so that a double click or Enter pressed twice
 * cannot start a second run before React re-renders), and the production confirmation for runs that record
 * a real transaction. Used by the inquiry page, the history's replay and Run both.
 */
export function useGuardedRun<T>({
  needsConfirmation,
  run,
}: {
  /** True when this submission records a real transaction in production: ask first. */
  needsConfirmation: (submission: T) => boolean;
  run: (submission: T) => Promise<void>;
}) {
  const locked = useRef(false);
  const [confirming, setConfirming] = useState<{ submission: T } | null>(null);

  async function execute(submission: T) {
    try {
      await run(submission);
    } finally {
      locked.current = false;
    }
  }

  return {
    /** False when a run is already under way (the submission is ignored). */
    start(submission: T): boolean {
      if (locked.current) return false;
      locked.current = true;
      if (needsConfirmation(submission)) setConfirming({ submission });
      else void execute(submission);
      return true;
    },
    isLocked: () => locked.current,
    /** The submission waiting for the confirmation (memory only). */
    confirming: confirming?.submission ?? null,
    confirm() {
      const waiting = confirming;
      setConfirming(null);
      if (waiting) void execute(waiting.submission);
    },
    cancel() {
      setConfirming(null);
      locked.current = false;
    },
  };
}

export function ProductionConfirmDialog({
  guard,
  title,
  confirmLabel,
  children,
}: {
  guard: { confirming: unknown; confirm: () => void; cancel: () => void };
  title: string;
  confirmLabel: string;
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      open={guard.confirming !== null}
      title={title}
      confirmLabel={confirmLabel}
      onCancel={guard.cancel}
      onConfirm={guard.confirm}
    >
      {children}
    </ConfirmDialog>
  );
}
