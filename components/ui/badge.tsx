import type { ReactNode } from "react";
import { cx } from "./class-names";

export type BadgeTone = "neutral" | "success" | "warning" | "danger" | "info" | "accent";

const TONES: Record<BadgeTone, string> = {
  neutral:
    "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600",
  success:
    "bg-emerald-50 text-emerald-800 ring-emerald-600/30 dark:bg-emerald-400/10 dark:text-emerald-300 dark:ring-emerald-400/30",
  warning:
    "bg-amber-50 text-amber-800 ring-amber-600/30 dark:bg-amber-400/10 dark:text-amber-300 dark:ring-amber-400/30",
  danger: "bg-red-50 text-red-800 ring-red-600/30 dark:bg-red-400/10 dark:text-red-300 dark:ring-red-400/30",
  info: "bg-sky-50 text-sky-800 ring-sky-600/30 dark:bg-sky-400/10 dark:text-sky-300 dark:ring-sky-400/30",
  accent:
    "bg-indigo-50 text-indigo-800 ring-indigo-600/30 dark:bg-indigo-400/10 dark:text-indigo-200 dark:ring-indigo-400/30",
};

export function Badge({
  tone = "neutral",
  size = "sm",
  className,
  children,
}: {
  tone?: BadgeTone;
  size?: "sm" | "lg";
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1 rounded-md font-medium whitespace-nowrap ring-1 ring-inset",
        size === "lg" ? "px-2.5 py-1 text-sm" : "px-2 py-0.5 text-xs",
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
