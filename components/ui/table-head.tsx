import type { ReactNode } from "react";

export interface TableColumn {
  key: string;
  label: ReactNode;
  /** The header cell's classes, instead of the table's `cellClassName` (no class has to win over another). */
  className?: string;
  /** Named for screen readers only (e.g. an actions column). */
  srOnly?: boolean;
}

/** A header row ruled off from the body, in small muted text (the certification tables). */
export const RULED_HEAD = "border-b border-default text-xs text-subtle";

/** A table's header row: one `<th scope="col">` per column. */
export function TableHead({
  columns,
  className,
  cellClassName,
}: {
  columns: readonly TableColumn[];
  className?: string;
  cellClassName?: string;
}) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column) => (
          <th key={column.key} scope="col" className={column.className ?? cellClassName}>
            {column.srOnly ? <span className="sr-only">{column.label}</span> : column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
