/**
 * The one reader of an exchange record's response body. The server attaches `summary` to every record whose
 * answer succeeded and matched the spec's schema (lib/server/card-api/exchange-record.ts, from `checkBody`'s data);
 * pages read it through `exchangeSummary`, which derives it here, once, for what has none: records stored
 * before the summary existed, and successful answers that did not match the schema. Isomorphic, zod-free.
 */
import type { ExchangeBodySummary, ExchangeRecord, OperationName } from "./contracts";

type JsonObject = Record<string, unknown>;

function asObject(value: unknown): JsonObject | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

function stringOf(object: JsonObject | null, key: string): string | null {
  const value = object?.[key];
  return typeof value === "string" ? value : null;
}

/** A value the pages show as text: strings as they are, other JSON as JSON, nothing as null. */
function textOf(object: JsonObject | null, key: string): string | null {
  const value = object?.[key];
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `body.data` as an object, when the body is JSON with a data object (what the spec's answers carry). */
export function responseData(record: ExchangeRecord): JsonObject | null {
  if (record.response.body_is_text) return null;
  return asObject(asObject(record.response.body)?.data);
}

/** The card request's modes as the record's request sent them (API specification §2.3), for running it again. */
export function requestCardModes(record: ExchangeRecord): {
  entryMode: string | null;
  pinMode: string | null;
} {
  const data = asObject(asObject(record.request.body)?.data);
  return { entryMode: stringOf(data, "entry_mode"), pinMode: stringOf(data, "pin_mode") };
}

/** The summary of a successful answer's body (the whole JSON body); null when it has no data object. */
export function summarizeBody(operation: OperationName, body: unknown): ExchangeBodySummary | null {
  const data = asObject(asObject(body)?.data);
  if (!data) return null;
  switch (operation) {
    case "token": {
      const attributes = asObject(data.attributes);
      const scope = stringOf(attributes, "scope");
      const expiresIn = attributes?.expires_in;
      return {
        operation,
        token_type: stringOf(attributes, "token_type"),
        scopes: scope ? scope.split(" ").filter(Boolean) : [],
        expires_in: typeof expiresIn === "number" ? expiresIn : null,
      };
    }
    case "gift_balance_inquiry":
    case "transaction_lookup": {
      const transaction = {
        transaction_id: stringOf(data, "transaction_id"),
        external_id: stringOf(data, "external_id"),
        card_number: stringOf(data, "card_number"),
        response_status: stringOf(data, "response_status"),
        response_code: textOf(data, "response_code"),
        response_message: textOf(data, "response_message"),
        balance: textOf(data, "balance"),
      };
      return operation === "transaction_lookup"
        ? { operation, found: Boolean(transaction.transaction_id), ...transaction }
        : { operation, ...transaction };
    }
    case "balance_inquiry": {
      const balances = asObject(data.balances);
      return {
        operation,
        card_number: stringOf(data, "card_number"),
        balances: balances
          ? Object.fromEntries(
              Object.entries(balances).map(([purse, amount]) => [
                purse,
                typeof amount === "string" ? amount : JSON.stringify(amount),
              ]),
            )
          : null,
      };
    }
  }
}

/** The record's summary: the server's, else derived from a successful JSON body; null for failures. */
export function exchangeSummary(record: ExchangeRecord): ExchangeBodySummary | null {
  if (record.summary) return record.summary;
  const { status, body_is_text } = record.response;
  if (status < 200 || status >= 300 || body_is_text) return null;
  return summarizeBody(record.operation, record.response.body);
}

/** The transaction a gift inquiry recorded or a lookup found; null for other operations and failures. */
export function summaryTransactionId(record: ExchangeRecord): string | null {
  const summary = exchangeSummary(record);
  if (summary?.operation !== "gift_balance_inquiry" && summary?.operation !== "transaction_lookup")
    return null;
  return summary.transaction_id || null;
}
