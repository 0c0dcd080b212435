import type { ButtonHTMLAttributes, Ref } from "react";
import { cx } from "./class-names";
import { Spinner } from "./spinner";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    "bg-indigo-600 text-white shadow-sm hover:bg-indigo-700 disabled:bg-indigo-600/60 dark:disabled:bg-indigo-600/50",
  danger: "bg-red-700 text-white shadow-sm hover:bg-red-800 disabled:bg-red-700/60",
  secondary:
    "border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800 disabled:opacity-60",
  ghost:
    "text-slate-700 hover:bg-slate-200/70 disabled:opacity-60 dark:text-slate-200 dark:hover:bg-slate-800",
};

const SIZES = {
  sm: "h-8 gap-1.5 px-2.5 text-xs",
  md: "h-9 gap-2 px-3.5 text-sm",
  lg: "h-10 gap-2 px-4 text-sm",
} as const;

export function buttonClasses(variant: ButtonVariant = "secondary", size: keyof typeof SIZES = "md"): string {
  return cx(
    "inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500",
    "disabled:cursor-not-allowed",
    VARIANTS[variant],
    SIZES[size],
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
  /**
   * Shows a spinner and ignores clicks; the label stays, so the width does not jump. The button stays
   * focusable (aria-disabled, not disabled), so that keyboard focus is not lost while it works.
   */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = "secondary",
  size = "md",
  busy = false,
  className,
  children,
  disabled,
  type = "button",
  onClick,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cx(buttonClasses(variant, size), busy && "cursor-progress opacity-80", className)}
      disabled={disabled}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        // A busy submit button must not submit its form again.
        if (busy) event.preventDefault();
        else onClick?.(event);
      }}
      {...props}
    >
      {busy ? <Spinner /> : null}
      {children}
    </button>
  );
}
