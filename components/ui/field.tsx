import type { InputHTMLAttributes, ReactNode, Ref } from "react";
import { cx } from "./class-names";

export const inputClasses = cx(
  "block h-9 w-full min-w-0 rounded-md border border-field bg-field px-3 text-sm text-fg shadow-sm",
  "placeholder:text-subtle focus:border-indigo-500 focus:outline-2 focus:outline-offset-0 focus:outline-indigo-500/40",
  "disabled:bg-raised disabled:text-subtle",
  "aria-[invalid=true]:border-red-500",
);

/** A field's label above it: the form size, or `dense` for a row of filters. */
export function fieldLabelClasses(dense = false): string {
  return dense ? "mb-1 block text-xs font-medium text-body" : "mb-1.5 block text-sm font-medium text-fg";
}

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  id: string;
  label: ReactNode;
  /** Shown under the field and announced with it. */
  hint?: ReactNode;
  error?: string | null;
  /** Content next to the label, e.g. a badge. */
  labelAside?: ReactNode;
  /** Content after the input on the same line, e.g. a button. */
  addon?: ReactNode;
  mono?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export function Field({
  id,
  label,
  hint,
  error,
  labelAside,
  addon,
  mono,
  className,
  ref,
  ...input
}: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {labelAside}
      </div>
      <div className="flex gap-2">
        <input
          ref={ref}
          id={id}
          className={cx(inputClasses, mono && "font-mono")}
          aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
          aria-invalid={error ? true : undefined}
          {...input}
        />
        {addon}
      </div>
      {/* Reserved line: an error appearing does not push the form down. */}
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-danger">
          {error}
        </p>
      ) : hint ? (
        <p id={hintId} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
