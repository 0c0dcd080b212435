/**
 * The support desk's answer to a lookup by Request Id: what the agent needs to tell a customer (found or not,
 * when, the result, the gift balance, the card by its last 4), never the exchange record (support may not see
 * raw requests and responses, DESIGN.md §6).
 */
import "server-only";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { SupportTransactionLookup } from "@/lib/shared/support-contract";

function bodyTimestamp(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const data = (body as { data?: unknown }).data;
  if (typeof data !== "object" || data === null) return null;
  const timestamp = (data as { timestamp?: unknown }).timestamp;
  return typeof timestamp === "string" && timestamp.length <= 64 ? timestamp : null;
}

/** `************0001` from whatever masked form the record holds: only the last 4 digits survive. */
function last4Of(masked: string | null): string | null {
  const digits = masked?.match(/(\d{4})$/);
  return digits ? digits[1]! : null;
}

function outcomeOf(status: number, found: boolean): SupportTransactionLookup["outcome"] {
  if (found) return "found";
  if (status === 404) return "not_found";
  return "upstream_error";
}

export function supportTransactionLookup(record: ExchangeRecord): SupportTransactionLookup {
  const status = record.response.status;
  const summary = record.summary?.operation === "transaction_lookup" ? record.summary : null;
  const found = summary?.found === true && status < 300;
  return {
    request_id: record.request_id ?? "",
    environment: record.environment,
    outcome: outcomeOf(status, found),
    upstream_status: status,
    looked_up_at: record.started_at,
    transaction: found
      ? {
          transaction_id: summary.transaction_id,
          time: bodyTimestamp(record.response.body),
          card_last4: last4Of(summary.card_number),
          response_status: summary.response_status,
          response_code: summary.response_code,
          response_message: summary.response_message,
          gift_balance: summary.balance,
        }
      : null,
  };
}
