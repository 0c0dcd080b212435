/**
 * A one-glance reading of an exchange record: what the result view's badge and a history row show.
 * Reads bodies defensively: an upstream may answer anything.
 */
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { exchangeSummary } from "@/lib/shared/exchange-summary";

export { responseData } from "@/lib/shared/exchange-summary";

export type ExchangeOutcome = "approved" | "declined" | "success" | "failure";

export interface ExchangeSummary {
  outcome: ExchangeOutcome;
  /** Short text, e.g. "approved · 25.00", "8 purses", "HTTP 500 · not JSON". */
  label: string;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

function failureLabel(exchange: ExchangeRecord): string {
  const { status, body_is_text } = exchange.response;
  const errors = asRecord(exchange.response.body)?.errors;
  const firstError = Array.isArray(errors) ? asRecord(errors[0]) : null;
  const code = typeof firstError?.code === "string" ? firstError.code : null;
  return [`HTTP ${status}`, code, body_is_text ? "not JSON" : null].filter(Boolean).join(" · ");
}

export function summarizeExchange(exchange: ExchangeRecord): ExchangeSummary {
  const { status } = exchange.response;
  if (status === 0) return { outcome: "failure", label: "outcome unknown · look up by Request Id" };
  const summary = isSuccessStatus(status) ? exchangeSummary(exchange) : null;
  if (!summary) return { outcome: "failure", label: failureLabel(exchange) };

  switch (summary.operation) {
    case "gift_balance_inquiry":
      if (summary.response_status === "approved") {
        return { outcome: "approved", label: `approved · ${summary.balance ?? "?"}` };
      }
      if (summary.response_status === "declined") {
        return { outcome: "declined", label: `declined · ${summary.response_code ?? "no code"}` };
      }
      return { outcome: "failure", label: `HTTP ${status} · no response_status` };
    case "balance_inquiry":
      if (!summary.balances) return { outcome: "failure", label: `HTTP ${status} · no balances` };
      return { outcome: "success", label: `${Object.keys(summary.balances).length} purses` };
    case "transaction_lookup": {
      const id = summary.transaction_id;
      return { outcome: "success", label: id ? `found · ${id.slice(0, 8)}…` : "found" };
    }
    case "token":
      return {
        outcome: "success",
        label: `token issued · ${summary.scopes.length} scope${summary.scopes.length === 1 ? "" : "s"}`,
      };
  }
}
