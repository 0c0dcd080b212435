"use client";

import { useEffect, useRef, useState } from "react";
import { buttonClasses, type ButtonVariant } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";

async function writeClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Clipboard API refused (permissions, insecure origin): the selection fallback below still works.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("copy refused");
}

function CopyIcon({ done }: { done: boolean }) {
  return done ? (
    <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
      <path
        fillRule="evenodd"
        d="M16.704 4.153a.75.75 0 0 1 .143 1.052l-8 10.5a.75.75 0 0 1-1.127.075l-4.5-4.5a.75.75 0 0 1 1.06-1.06l3.894 3.893 7.48-9.817a.75.75 0 0 1 1.05-.143Z"
        clipRule="evenodd"
      />
    </svg>
  ) : (
    <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
      <path d="M7 3.5A1.5 1.5 0 0 1 8.5 2h3.879a1.5 1.5 0 0 1 1.06.44l3.122 3.12A1.5 1.5 0 0 1 17 6.622V12.5a1.5 1.5 0 0 1-1.5 1.5h-1v-3.379a3 3 0 0 0-.879-2.121L10.5 5.379A3 3 0 0 0 8.379 4.5H7v-1Z" />
      <path d="M4.5 6A1.5 1.5 0 0 0 3 7.5v9A1.5 1.5 0 0 0 4.5 18h7a1.5 1.5 0 0 0 1.5-1.5v-5.879a1.5 1.5 0 0 0-.44-1.06L9.44 6.439A1.5 1.5 0 0 0 8.378 6H4.5Z" />
    </svg>
  );
}

/**
 * Copies text (or what `text()` returns at click time) and confirms it in place and to screen readers.
 * With `iconOnly`, `label` becomes the accessible name.
 */
export function CopyButton({
  text,
  label = "Copy",
  iconOnly = false,
  variant = "ghost",
  size = "sm",
  className,
}: {
  text: string | (() => string);
  label?: string;
  iconOnly?: boolean;
  variant?: ButtonVariant;
  size?: "sm" | "md";
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  async function copy() {
    try {
      await writeClipboard(typeof text === "function" ? text() : text);
      setState("copied");
    } catch {
      setState("failed");
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 1800);
  }

  const feedback = state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "";
  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={iconOnly ? label : undefined}
      title={iconOnly ? label : undefined}
      className={cx(buttonClasses(variant, size, iconOnly), className)}
    >
      <CopyIcon done={state === "copied"} />
      {iconOnly ? null : (
        // Both labels occupy the same cell, so the button keeps its width when the text changes.
        <span className="grid">
          <span className={cx("col-start-1 row-start-1", feedback && "invisible")}>{label}</span>
          <span aria-hidden="true" className={cx("col-start-1 row-start-1", !feedback && "invisible")}>
            {feedback || label}
          </span>
        </span>
      )}
      <span role="status" className="sr-only">
        {feedback}
      </span>
    </button>
  );
}

/**
 * A value shown in monospace with a copy button, e.g. a transaction_id: whole, wrapped only where its line has no
 * room for it, never cut with "…" (a person reads and compares ids).
 */
export function CopyableValue({ value, name }: { value: string; name: string }) {
  return (
    <span className="inline-flex max-w-full min-w-0 items-center gap-1">
      <code className="min-w-0 font-mono text-sm wrap-anywhere text-fg">{value}</code>
      <CopyButton text={value} label={`Copy ${name}`} iconOnly />
    </span>
  );
}
