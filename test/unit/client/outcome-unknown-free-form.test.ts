import { describe, expect, it } from "vitest";
import { ApiClientError } from "@/lib/client/fetcher";
import { outcomeUnknownFreeFormRecord } from "@/lib/client/outcome-unknown";

const URL_SENT = "http://127.0.0.1:4010/transaction/v1/gift/balance-inquiry";
const REQUEST_ID = "3b241101-e2bb-4255-8caf-4136c566a962";
const timeout = new ApiClientError("upstream_timeout", 504, "The upstream did not answer in time", {
  url: URL_SENT,
  request_id: REQUEST_ID,
});

describe("a free-form Gift Balance Inquiry without an answer", () => {
  it("is kept with its headers, the Request Id it went with, its raw body masked and the upstream address", () => {
    const record = outcomeUnknownFreeFormRecord({
      input: {
        operation: "gift_balance_inquiry",
        headers: { "x-request-id": REQUEST_ID, "X-Trace": "t-1" },
        body: '{"data": {"card_number": "6006491000000043", "entry_mode": "keyed"}',
      },
      requestId: REQUEST_ID,
      error: timeout,
      environment: "sandbox",
      startedAt: new Date("2026-11-27T02:00:00Z"),
      durationMs: 1000.4,
    });
    expect(record).toMatchObject({
      operation: "gift_balance_inquiry",
      free_form: true,
      request_id: REQUEST_ID,
      duration_ms: 1000,
      request: {
        method: "POST",
        url: URL_SENT,
        headers: { "Content-Type": "application/json", "X-Trace": "t-1", "X-Request-Id": REQUEST_ID },
        body: '{"data": {"card_number": "600649******0043", "entry_mode": "keyed"}',
      },
      response: { status: 0 },
    });
    expect(Object.keys(record!.request.headers)).not.toContain("x-request-id");
  });

  it("is not kept without the upstream address (it could not be re-sent)", () => {
    const error = new ApiClientError("upstream_timeout", 504, "no", { request_id: REQUEST_ID });
    const record = outcomeUnknownFreeFormRecord({
      input: { operation: "gift_balance_inquiry", body: "{}" },
      requestId: REQUEST_ID,
      error,
      environment: "sandbox",
      startedAt: new Date(),
      durationMs: 1,
    });
    expect(record).toBeNull();
  });
});
