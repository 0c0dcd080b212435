import { describe, expect, test } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { supportTransactionLookup } from "@/lib/server/support/transaction-lookup";

function record(status: number, body: unknown, found: boolean): ExchangeRecord {
  return {
    id: "x1",
    operation: "transaction_lookup",
    environment: "embedded",
    started_at: "2026-11-24T10:00:00.000Z",
    duration_ms: 12,
    request_id: "req-42",
    request: { method: "GET", url: "https://u/x", headers: { authorization: "[redacted]" }, body: null },
    response: { status, headers: {}, body },
    token_events: [],
    ...(found
      ? {
          summary: {
            operation: "transaction_lookup" as const,
            found: true,
            transaction_id: "t-1",
            external_id: "e-1",
            card_number: "600649******0001",
            response_status: "approved",
            response_code: "transaction_approved",
            response_message: "Approved",
            balance: "25.00",
          },
        }
      : {}),
  } as ExchangeRecord;
}

describe("the support answer to a lookup by Request Id", () => {
  test("a found transaction: time, result, gift balance, last 4 only, and no exchange", () => {
    const answer = supportTransactionLookup(
      record(200, { data: { card_number: "600649******0001", timestamp: "2026-11-24T09:59:00Z" } }, true),
    );
    expect(answer).toEqual({
      request_id: "req-42",
      environment: "embedded",
      outcome: "found",
      upstream_status: 200,
      looked_up_at: "2026-11-24T10:00:00.000Z",
      transaction: {
        transaction_id: "t-1",
        time: "2026-11-24T09:59:00Z",
        card_last4: "0001",
        response_status: "approved",
        response_code: "transaction_approved",
        response_message: "Approved",
        gift_balance: "25.00",
      },
    });
    const text = JSON.stringify(answer);
    expect(text).not.toContain("600649");
    expect(text).not.toContain("authorization");
  });

  test("read from the answer's own data when the record carries no summary", () => {
    const body = {
      data: {
        transaction_id: "t-2",
        card_number: "600649******0019",
        response_status: "declined",
        response_message: "Declined",
        balance: "0.00",
        timestamp: "2026-11-24T09:00:00Z",
      },
    };
    expect(supportTransactionLookup(record(200, body, false)).transaction).toMatchObject({
      transaction_id: "t-2",
      card_last4: "0019",
      response_status: "declined",
      gift_balance: "0.00",
      time: "2026-11-24T09:00:00Z",
    });
  });

  test("no such transaction is not_found; another answer is an upstream error", () => {
    expect(supportTransactionLookup(record(404, { errors: [] }, false))).toMatchObject({
      outcome: "not_found",
      transaction: null,
    });
    expect(supportTransactionLookup(record(502, "bad gateway", false)).outcome).toBe("upstream_error");
  });
});
