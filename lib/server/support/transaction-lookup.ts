/**
 * The support desk's answer to a lookup by Request Id: what the agent needs to tell a customer (found or not,
 * when, the result, the gift balance, the card by its last 4), never the exchange record (support may not see
 * raw requests and responses, docs/design.md §6).
 */
import "server-only";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { SupportTransactionLookup } from "@/lib/shared/support-contract";

/** The answer's `data` object (card number already masked in the record), or null. */
function bodyData(record: ExchangeRecord): Record<string, unknown> | null {
  const { body, body_is_text } = record.response;
  if (body_is_text || typeof body !== "object" || body === null) return null;
  const data = (body as { data?: unknown }).data;
  return typeof data === "object" && data !== null && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : null;
}

/** A short text field of the answer; anything else (missing, not a string, too long) is null. */
function field(data: Record<string, unknown> | null, key: string): string | null {
  const value = data?.[key];
  return typeof value === "string" && value.length <= 200 ? value : null;
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
  // Read from the answer itself (the API specification §2.4 fields), the summary when the body is gone.
  const summary = record.summary?.operation === "transaction_lookup" ? record.summary : null;
  const data = status >= 200 && status < 300 ? bodyData(record) : null;
  const pick = (key: keyof NonNullable<typeof summary>) => {
    const own = field(data, key);
    const summarised = summary?.[key];
    return own ?? (typeof summarised === "string" ? summarised : null);
  };
  const transactionId = pick("transaction_id");
  const found = status >= 200 && status < 300 && transactionId !== null;
  return {
    request_id: record.request_id ?? "",
    environment: record.environment,
    outcome: outcomeOf(status, found),
    upstream_status: status,
    looked_up_at: record.started_at,
    transaction: found
      ? {
          transaction_id: transactionId,
          time: field(data, "timestamp"),
          card_last4: last4Of(pick("card_number")),
          response_status: pick("response_status"),
          response_code: pick("response_code"),
          response_message: pick("response_message"),
          gift_balance: pick("balance"),
        }
      : null,
  };
}
