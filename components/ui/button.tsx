import type { ButtonHTMLAttributes, Ref } from "react";
import { cx } from "./class-names";
import { Spinner } from "./spinner";
import { useHydrated } from "./use-hydrated";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger" | "ghost-danger";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-indigo-600 text-inverted shadow-sm hover:bg-indigo-700 disabled:bg-indigo-600/60",
  danger: "bg-red-700 text-inverted shadow-sm hover:bg-red-800 disabled:bg-red-700/60",
  secondary: "border border-field bg-panel text-fg shadow-sm hover:bg-raised disabled:opacity-60",
  ghost: "text-body hover:bg-raised disabled:opacity-60",
  /** A quiet destructive action in a row of ghost buttons (e.g. delete a history run): red on hover only. */
  "ghost-danger": "text-muted hover:bg-raised hover:text-danger disabled:opacity-60",
};

export type ButtonSize = "sm" | "md" | "lg";

const SIZES: Record<ButtonSize, string> = {
  sm: "h-8 gap-1.5 text-xs",
  md: "h-9 gap-2 text-sm",
  lg: "h-10 gap-2 text-sm",
};
/** Text buttons are padded; icon-only buttons are square. One or the other, so no class has to win. */
const TEXT_PADDING: Record<ButtonSize, string> = { sm: "px-2.5", md: "px-3.5", lg: "px-4" };
const ICON_WIDTH: Record<ButtonSize, string> = { sm: "w-8 px-0", md: "w-9 px-0", lg: "w-10 px-0" };

export function buttonClasses(
  variant: ButtonVariant = "secondary",
  size: ButtonSize = "md",
  iconOnly = false,
): string {
  return cx(
    "inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500",
    "disabled:cursor-not-allowed",
    VARIANTS[variant],
    SIZES[size],
    iconOnly ? ICON_WIDTH[size] : TEXT_PADDING[size],
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** A square button holding an icon only (give it an aria-label). */
  iconOnly?: boolean;
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
  iconOnly = false,
  busy = false,
  className,
  children,
  disabled,
  type = "button",
  onClick,
  ...props
}: ButtonProps) {
  // Before React runs, a submit button would submit its form natively: the page reloads, the fields go to the
  // address bar and nothing is sent. It waits for React instead.
  const waitingForReact = !useHydrated() && type === "submit";
  return (
    <button
      type={type}
      className={cx(buttonClasses(variant, size, iconOnly), busy && "cursor-progress opacity-80", className)}
      disabled={disabled || waitingForReact}
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
