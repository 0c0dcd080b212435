/**
 * Filtering and labelling of history runs (lib/client/history-store.ts): what the history table and the
 * compare page's run pickers show. Pure functions, so the rules are unit-tested.
 */
import type { EnvironmentName, OperationName } from "@/lib/shared/contracts";
import { ENVIRONMENT_NAMES, OPERATION_NAMES } from "./environments";
import { operationLabel } from "@/lib/shared/operations";
import type { HistoryRun } from "./history-store";
import { isOutcomeUnknown } from "./outcome-unknown";

/** A status filter: a class ("2xx") or one exact status ("409"). */
export type StatusFilter = "" | "2xx" | "3xx" | "4xx" | "5xx" | `${number}`;

export interface HistoryFilters {
  operation: OperationName | "";
  environment: EnvironmentName | "";
  /** Last four digits of the card; partial input matches the end of the last four. */
  cardLast4: string;
  status: StatusFilter;
}

export const EMPTY_FILTERS: HistoryFilters = { operation: "", environment: "", cardLast4: "", status: "" };

export function hasActiveFilters(filters: HistoryFilters): boolean {
  return Boolean(filters.operation || filters.environment || filters.cardLast4 || filters.status);
}

function statusMatches(status: number, filter: StatusFilter): boolean {
  if (!filter) return true;
  if (/^\dxx$/.test(filter)) return Math.floor(status / 100) === Number(filter[0]);
  return status === Number(filter);
}

/** The "Card last 4" filter's value from what was typed or pasted: a full card number gives its last 4. */
export function lastFourDigits(input: string): string {
  return input.replace(/\D/g, "").slice(-4);
}

export function filterRuns(runs: readonly HistoryRun[], filters: HistoryFilters): HistoryRun[] {
  const last4 = filters.cardLast4.replace(/\D/g, "");
  return runs.filter(
    (run) =>
      (!filters.operation || run.exchange.operation === filters.operation) &&
      (!filters.environment || run.exchange.environment === filters.environment) &&
      (!last4 || (run.card !== null && run.card.last4.endsWith(last4))) &&
      statusMatches(run.exchange.response.status, filters.status),
  );
}

/** The statuses present in the runs, ascending: the exact-status options of the filter. */
export function statusesIn(runs: readonly HistoryRun[]): number[] {
  return [...new Set(runs.map((run) => run.exchange.response.status))].sort((a, b) => a - b);
}

const OPERATIONS = new Set<string>(OPERATION_NAMES);
const ENVIRONMENTS = new Set<string>(ENVIRONMENT_NAMES);

/** Filters from URL search parameters, ignoring anything that is not a valid value. */
export function filtersFromSearch(params: URLSearchParams): HistoryFilters {
  const operation = params.get("operation") ?? "";
  const environment = params.get("environment") ?? "";
  const card = lastFourDigits(params.get("card") ?? "");
  const status = params.get("status") ?? "";
  return {
    operation: OPERATIONS.has(operation) ? (operation as OperationName) : "",
    environment: ENVIRONMENTS.has(environment) ? (environment as EnvironmentName) : "",
    cardLast4: card,
    status: /^([1-5]xx|[1-5]\d\d)$/.test(status) ? (status as StatusFilter) : "",
  };
}

/** The search parameters of a set of filters (empty ones left out), on top of `base`. */
export function filtersToSearch(filters: HistoryFilters, base = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(base);
  const entries: [string, string][] = [
    ["operation", filters.operation],
    ["environment", filters.environment],
    ["card", filters.cardLast4],
    ["status", filters.status],
  ];
  for (const [key, value] of entries) {
    if (value) params.set(key, value);
    else params.delete(key);
  }
  return params;
}

/**
 * A run in one line, for pickers: "Gift Balance Inquiry · 600649******0001 · 201 · embedded"; a run that got no
 * answer (kept with status 0) says "no answer".
 */
export function runLabel(run: HistoryRun): string {
  const parts = [
    operationLabel(run.exchange.operation),
    run.card?.masked,
    isOutcomeUnknown(run.exchange) ? "no answer" : String(run.exchange.response.status),
    run.exchange.environment,
  ];
  return parts.filter(Boolean).join(" · ");
}
