/**
 * A one-glance reading of an exchange record: what the result view's badge and a history row show.
 * Reads bodies defensively: an upstream may answer anything.
 */
import type { ExchangeRecord } from "@/lib/api/contracts";

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

/** `body.data` as an object, when the body is JSON with a data object. */
export function responseData(exchange: ExchangeRecord): Record<string, unknown> | null {
  if (exchange.response.body_is_text) return null;
  return asRecord(asRecord(exchange.response.body)?.data);
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
  const data = responseData(exchange);
  if (status === 0) return { outcome: "failure", label: "outcome unknown · look up by Request Id" };
  if (!isSuccessStatus(status) || !data) return { outcome: "failure", label: failureLabel(exchange) };

  if (exchange.operation === "gift_balance_inquiry") {
    const verdict = data.response_status;
    if (verdict === "approved") {
      return { outcome: "approved", label: `approved · ${String(data.balance ?? "?")}` };
    }
    if (verdict === "declined") {
      return { outcome: "declined", label: `declined · ${String(data.response_code ?? "no code")}` };
    }
    return { outcome: "failure", label: `HTTP ${status} · no response_status` };
  }
  if (exchange.operation === "balance_inquiry") {
    const balances = asRecord(data.balances);
    if (!balances) return { outcome: "failure", label: `HTTP ${status} · no balances` };
    return { outcome: "success", label: `${Object.keys(balances).length} purses` };
  }
  if (exchange.operation === "transaction_lookup") {
    const id = typeof data.transaction_id === "string" ? data.transaction_id : null;
    return { outcome: "success", label: id ? `found · ${id.slice(0, 8)}…` : "found" };
  }
  const attributes = asRecord(data.attributes);
  const scope = typeof attributes?.scope === "string" ? attributes.scope.split(" ").filter(Boolean) : [];
  return {
    outcome: "success",
    label: `token issued · ${scope.length} scope${scope.length === 1 ? "" : "s"}`,
  };
}
