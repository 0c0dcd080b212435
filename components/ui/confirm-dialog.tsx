"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button";

/**
 * A modal confirmation on the native <dialog>: focus is trapped, Escape cancels, and the safe choice
 * (Cancel) has the initial focus.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  tone = "danger",
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  tone?: "danger" | "primary";
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      cancel.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-raised bg-panel p-0 text-fg shadow-2xl backdrop:bg-slate-950/60"
    >
      <div className="px-5 pt-5">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <div id={bodyId} className="mt-2 space-y-2 text-sm text-body">
          {children}
        </div>
      </div>
      <div className="mt-5 flex justify-end gap-2 border-t border-default bg-inset px-5 py-3">
        <Button ref={cancel} onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={tone === "danger" ? "danger" : "primary"} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
