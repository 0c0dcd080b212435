"use client";

import { useId } from "react";
import { operationLabel } from "@/lib/shared/operations";
import { ENVIRONMENT_NAMES, OPERATION_NAMES, environmentLabel } from "@/lib/client/environments";
import {
  EMPTY_FILTERS,
  hasActiveFilters,
  lastFourDigits,
  type HistoryFilters,
  type StatusFilter,
} from "@/lib/client/history-filter";
import { statusLine } from "@/lib/client/http-status";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { fieldLabelClasses, inputClasses } from "@/components/ui/field";
import { SelectField } from "@/components/ui/select-field";

/** Operation, environment, card last 4 and status filters over every run, and their reset. */
export function HistoryFiltersBar({
  filters,
  statuses,
  onChange,
}: {
  filters: HistoryFilters;
  /** The exact statuses found in history, offered after the status classes. */
  statuses: readonly number[];
  onChange: (next: HistoryFilters) => void;
}) {
  const ids = { operation: useId(), environment: useId(), card: useId(), status: useId() };
  return (
    <div className="mt-3 grid grid-cols-2 items-end gap-3 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]">
      <SelectField
        id={ids.operation}
        label="Operation"
        dense
        value={filters.operation}
        onChange={(value) => onChange({ ...filters, operation: value as HistoryFilters["operation"] })}
      >
        <option value="">All operations</option>
        {OPERATION_NAMES.map((operation) => (
          <option key={operation} value={operation}>
            {operationLabel(operation)}
          </option>
        ))}
      </SelectField>
      <SelectField
        id={ids.environment}
        label="Environment"
        dense
        value={filters.environment}
        onChange={(value) => onChange({ ...filters, environment: value as HistoryFilters["environment"] })}
      >
        <option value="">All environments</option>
        {ENVIRONMENT_NAMES.map((environment) => (
          <option key={environment} value={environment}>
            {environmentLabel(environment)}
          </option>
        ))}
      </SelectField>
      <div className="min-w-0">
        <label htmlFor={ids.card} className={fieldLabelClasses(true)}>
          Card last 4
        </label>
        <input
          id={ids.card}
          value={filters.cardLast4}
          onChange={(event) => onChange({ ...filters, cardLast4: lastFourDigits(event.target.value) })}
          inputMode="numeric"
          autoComplete="off"
          placeholder="e.g. 0001"
          className={cx(inputClasses, "font-mono")}
        />
      </div>
      <SelectField
        id={ids.status}
        label="Status"
        dense
        value={filters.status}
        onChange={(value) => onChange({ ...filters, status: value as StatusFilter })}
      >
        <option value="">All statuses</option>
        <option value="2xx">2xx success</option>
        <option value="4xx">4xx client error</option>
        <option value="5xx">5xx server error</option>
        {statuses.map((status) => (
          <option key={status} value={String(status)}>
            {statusLine(status)}
          </option>
        ))}
      </SelectField>
      <Button
        onClick={() => onChange(EMPTY_FILTERS)}
        disabled={!hasActiveFilters(filters)}
        className="col-span-2 lg:col-span-1"
      >
        Reset filters
      </Button>
    </div>
  );
}
