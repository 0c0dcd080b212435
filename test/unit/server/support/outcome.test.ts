import { describe, expect, test } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { ApiError } from "@/lib/server/util/errors";
import { classifyNoAnswer, classifyRecord, retryAfterSeconds } from "@/lib/server/support/outcome";

function record(status: number, body: unknown, headers: Record<string, string> = {}): ExchangeRecord {
  return {
    id: "r",
    operation: "balance_inquiry",
    environment: "embedded",
    started_at: new Date(0).toISOString(),
    duration_ms: 1,
    request: { method: "POST", url: "u", headers: {}, body: null },
    response: { status, headers, body },
    token_events: [],
  };
}

const BALANCES = {
  gift: "1.00",
  gift_rewards: "2.00",
  loyalty: "3.00",
  loyalty_rewards: "4.00",
  discount: "5.00",
  promotional: "6.00",
  punch: "7.00",
  punch_rewards: "8.00",
};

describe("support lookup outcomes", () => {
  test("200 with the eight purses is found; without them an upstream error", () => {
    expect(classifyRecord(record(200, { data: { balances: BALANCES } }))).toMatchObject({
      outcome: "found",
      balances: BALANCES,
    });
    expect(classifyRecord(record(200, "not json")).outcome).toBe("upstream_error");
    expect(classifyRecord(record(200, { data: { balances: { ...BALANCES, punch: 7 } } })).outcome).toBe(
      "upstream_error",
    );
  });

  test("404 unknown card, 429 with the wait, 401/403 and 5xx upstream errors", () => {
    expect(classifyRecord(record(404, {})).outcome).toBe("not_found");
    expect(classifyRecord(record(429, {}, { "Retry-After": "2" }))).toMatchObject({
      outcome: "rate_limited",
      retryAfterSeconds: 2,
    });
    expect(classifyRecord(record(403, {})).message).toMatch(/credentials/);
    expect(classifyRecord(record(503, {}))).toMatchObject({ outcome: "upstream_error", upstreamStatus: 503 });
  });

  test("Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterSeconds("5")).toBe(5);
    expect(retryAfterSeconds(new Date(10_000).toUTCString(), 0)).toBe(10);
    expect(retryAfterSeconds("soon")).toBeNull();
    expect(retryAfterSeconds(undefined)).toBeNull();
  });

  test("no answer is a timeout or unreachable; other errors are not outcomes", () => {
    expect(classifyNoAnswer(new ApiError("upstream_timeout", "t"))?.outcome).toBe("timeout");
    expect(classifyNoAnswer(new ApiError("upstream_unreachable", "u"))?.outcome).toBe("unreachable");
    expect(classifyNoAnswer(new ApiError("no_credentials", "n"))).toBeNull();
    expect(classifyNoAnswer(new Error("x"))).toBeNull();
  });
});
