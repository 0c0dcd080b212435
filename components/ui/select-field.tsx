import type { ReactNode } from "react";
import { cx } from "./class-names";
import { fieldLabelClasses, inputClasses } from "./field";

/** A labelled native <select>; `dense` for a row of filters (small label). */
export function SelectField({
  id,
  label,
  value,
  onChange,
  dense = false,
  selectClassName,
  children,
}: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  dense?: boolean;
  selectClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={fieldLabelClasses(dense)}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={cx(inputClasses, "pr-8", selectClassName)}
      >
        {children}
      </select>
    </div>
  );
}
