"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/**
 * A large modal on the native <dialog> (focus trapped, Escape closes, focus returns to the opener), with a
 * title bar and a scrolling body.
 */
export function HistoryDialog({
  open,
  title,
  subtitle,
  onClose,
  children,
  footer,
}: {
  open: boolean;
  title: string;
  subtitle?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    else if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto max-h-[min(56rem,calc(100vh-2rem))] w-[min(60rem,calc(100vw-2rem))] flex-col rounded-xl border border-raised bg-panel p-0 text-fg shadow-2xl backdrop:bg-slate-950/60 open:flex"
    >
      <div className="flex items-start justify-between gap-4 border-b border-default px-5 py-4">
        <div className="min-w-0">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {subtitle ? <div className="mt-0.5 text-sm text-muted">{subtitle}</div> : null}
        </div>
        <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close">
          <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
            <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
          </svg>
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{open ? children : null}</div>
      {footer ? (
        <div className="flex flex-wrap justify-end gap-2 border-t border-default bg-inset px-5 py-3">
          {footer}
        </div>
      ) : null}
    </dialog>
  );
}
