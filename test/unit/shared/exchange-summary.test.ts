import { describe, expect, it } from "vitest";
import { exchangeSummary, requestCardModes, summaryTransactionId } from "@/lib/shared/exchange-summary";
import { checkBody } from "@/lib/server/card-api/client";
import { buildExchangeRecord } from "@/lib/server/card-api/exchange-record";
import { giftBalanceResponseSchema } from "@/lib/server/card-api/schemas";
import { FULL_CARD, MASKED_CARD, giftExchange } from "../client/fixtures";

const TRANSACTION_ID = "3f1c2b9e-8a4d-4c1f-9b7e-2d5a6c8e1f00";

function giftBody(overrides: Record<string, unknown> = {}) {
  return {
    data: {
      transaction_id: TRANSACTION_ID,
      external_id: "7b2e4c1a-9d3f-4e8b-a6c5-1f0d2e3b4a59",
      entry_mode: "keyed",
      card_number: FULL_CARD,
      pin_mode: "none",
      pin_verification_result: "none",
      transaction_type: "gift_balance_inquiry",
      response_status: "approved",
      response_code: "00",
      response_message: "Approved",
      balance: "25.00",
      originator: { location_id: "store-1" },
      target: { scheme: "gift", purse: "gift" },
      timestamp: "2026-01-01T00:00:00Z",
      ...overrides,
    },
  };
}

function recordOf(body: unknown, status = 201) {
  const response = { status, headers: {}, body: JSON.stringify(body), truncated: false };
  return buildExchangeRecord({
    operation: "gift_balance_inquiry",
    environment: "embedded",
    exchange: {
      request: { method: "POST", url: "http://sandbox/gift", headers: {}, body: null },
      response,
      startedAt: Date.now(),
      durationMs: 1,
    },
    check: checkBody(response, giftBalanceResponseSchema),
  });
}

describe("exchange summary", () => {
  it("is attached by the server from the spec-checked body, with the card number masked", () => {
    const record = recordOf(giftBody());
    expect(record.summary).toEqual({
      operation: "gift_balance_inquiry",
      transaction_id: TRANSACTION_ID,
      external_id: "7b2e4c1a-9d3f-4e8b-a6c5-1f0d2e3b4a59",
      card_number: MASKED_CARD,
      response_status: "approved",
      response_code: "00",
      response_message: "Approved",
      balance: "25.00",
    });
    expect(JSON.stringify(record.summary)).not.toContain(FULL_CARD);
  });

  it("is absent when the answer failed or did not match the spec; pages then read what the body says", () => {
    expect(recordOf({ errors: [{ code: "server_error" }] }, 500).summary).toBeUndefined();
    const offSpec = recordOf(giftBody({ balance: 25 }));
    expect(offSpec.summary).toBeUndefined();
    expect(exchangeSummary(offSpec)).toMatchObject({ response_status: "approved", balance: "25" });
  });

  it("is derived for a record stored before summaries existed", () => {
    const stored = giftExchange();
    delete stored.summary;
    expect(exchangeSummary(stored)).toMatchObject({
      operation: "gift_balance_inquiry",
      card_number: MASKED_CARD,
      response_status: "approved",
    });
    expect(summaryTransactionId(stored)).toBe("0d4f0a2e-8d4b-4d7e-9b1a-6a2f7c1d9e01");
  });
});

describe("requestCardModes", () => {
  it("reads the entry and PIN modes the recorded request sent, for a replay", () => {
    expect(requestCardModes(giftExchange())).toEqual({ entryMode: "keyed", pinMode: "none" });
  });

  it("gives nulls for a request without a card body (a lookup, a token request)", () => {
    const record = giftExchange();
    expect(requestCardModes({ ...record, request: { ...record.request, body: null } })).toEqual({
      entryMode: null,
      pinMode: null,
    });
  });
});
