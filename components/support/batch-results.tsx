"use client";

import { useId, useState } from "react";
import { Panel } from "@/components/ui/panel";
import { SelectField } from "@/components/ui/select-field";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { TableHead, type TableColumn } from "@/components/ui/table-head";
import { useBatchResults } from "@/lib/client/use-support-api";
import { PURSES, purseLabel } from "@/lib/shared/purses";
import type { ResultFilter, SupportBatchResultRow } from "@/lib/shared/support-contract";
import { dotsLast4, OUTCOME_TITLES } from "./lookup-messages";

const RESULT_COLUMNS = [
  { key: "line", label: "Line" },
  { key: "card", label: "Card" },
  { key: "status", label: "Result" },
  ...PURSES.map((purse) => ({ key: purse, label: purseLabel(purse), className: "px-3 py-2 text-right" })),
];

const FILTERS: { value: ResultFilter | ""; label: string }[] = [
  { value: "", label: "All cards" },
  { value: "found", label: "Found" },
  { value: "not_found", label: "Not found (no such card)" },
  { value: "failed", label: "Failed (no usable answer)" },
  { value: "cancelled", label: "Cancelled" },
  { value: "in_flight", label: "In flight" },
];

/** What a row shows: cancelled and in-flight cards as such, a finished card by its outcome. */
function resultLabel(row: SupportBatchResultRow): string {
  if (row.state === "cancelled") return "Cancelled (not run)";
  if (row.state === "pending") return "In flight";
  return row.outcome ? OUTCOME_TITLES[row.outcome].title : "Failed";
}

/** Ours, with the uploaded columns (customer, note…) right after the card: whose line it is, at a glance. */
function resultColumns(uploaded: readonly string[]): TableColumn[] {
  const [line, card, ...rest] = RESULT_COLUMNS;
  const theirs = uploaded.map((name, index) => ({ key: `uploaded-${index}`, label: name }));
  return [line!, card!, ...theirs, ...rest];
}

export function BatchResults({
  id,
  running,
  columns,
}: {
  id: string;
  running: boolean;
  /** The uploaded CSV's other columns, by name (the batch's `columns`). */
  columns: readonly string[];
}) {
  const filterId = useId();
  const [show, setShow] = useState<ResultFilter | "">("");
  const { data } = useBatchResults(id, running, show || undefined);
  const rows = data?.rows ?? [];
  return (
    <Panel
      title="Results (first 100 shown; the CSV has every card)"
      titleId="batch-results-title"
      actions={
        <SelectField
          id={filterId}
          label="Show"
          dense
          value={show}
          onChange={(value) => setShow(value as ResultFilter | "")}
        >
          {FILTERS.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </SelectField>
      }
      bodyClassName="px-0 py-0"
    >
      <ScrollRegion label="Results table" hintClassName="px-4 pt-2">
        <table className="w-full text-left text-sm" aria-labelledby="batch-results-title">
          <TableHead
            columns={resultColumns(columns)}
            className="bg-inset text-xs text-muted"
            cellClassName="px-4 py-2"
          />
          <tbody className="divide-y divide-default">
            {rows.map((row) => (
              <tr key={row.position}>
                <td className="px-4 py-1.5 tabular-nums">{row.line}</td>
                <td className="px-4 py-1.5 font-mono whitespace-nowrap">{dotsLast4(row.last4)}</td>
                {columns.map((name, index) => (
                  <td key={`${index}-${name}`} className="max-w-64 px-4 py-1.5 break-words">
                    {row.extra[index] ?? ""}
                  </td>
                ))}
                <td className="px-4 py-1.5 whitespace-nowrap" title={row.error ?? undefined}>
                  {resultLabel(row)}
                </td>
                {PURSES.map((purse) => (
                  <td key={purse} className="px-3 py-1.5 text-right font-mono tabular-nums">
                    {row.balances?.[purse] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {data && rows.length === 0 ? (
        <p className="p-4 text-sm text-muted">No cards with this result.</p>
      ) : null}
    </Panel>
  );
}
