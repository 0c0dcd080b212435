import type { ReactNode } from "react";
import { cx } from "./class-names";

export type BadgeTone = "neutral" | "success" | "warning" | "danger" | "info" | "accent";

const TONES: Record<BadgeTone, string> = {
  neutral: "bg-raised text-body ring-neutral",
  success: "bg-success text-success ring-success",
  warning: "bg-warning text-warning ring-warning",
  danger: "bg-danger text-danger ring-danger",
  info: "bg-info text-info ring-info",
  accent: "bg-accent-soft text-accent-strong ring-accent",
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
