import { describe, expect, it } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { formatDeltaCents, parseAmountCents } from "@/lib/client/compare-money";
import {
  cardLastFour,
  diffRecords,
  isVolatileField,
  purseBalances,
  recordCard,
} from "@/lib/client/record-diff";

const FULL = {
  gift: "25.00",
  gift_rewards: "5.00",
  loyalty: "120.00",
  loyalty_rewards: "10.00",
  discount: "0.00",
  promotional: "15.00",
  punch: "7.00",
  punch_rewards: "1.00",
};

let sequence = 0;
function uuid(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, "0")}`;
}

function balanceRecord(
  overrides: {
    environment?: ExchangeRecord["environment"];
    balances?: Record<string, string>;
    card?: string;
  } = {},
): ExchangeRecord {
  const card = overrides.card ?? "600649******0001";
  const started = new Date(Date.UTC(2025, 0, 14, 10, 0, sequence)).toISOString();
  return {
    id: uuid(),
    operation: "balance_inquiry",
    environment: overrides.environment ?? "embedded",
    started_at: started,
    duration_ms: 10 + sequence,
    request: {
      method: "POST",
      url: `http://localhost:3000/${overrides.environment === "production" ? "prod" : "sandbox"}/transaction/v1/balance-inquiry`,
      headers: { "Content-Type": "application/json", Authorization: "[redacted]" },
      body: {
        data: {
          entry_mode: "keyed",
          card_number: card,
          pin_mode: "none",
          originator: { location_id: "store-1" },
        },
      },
    },
    response: {
      status: 200,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        Date: `Tue, 14 Jan 2025 10:00:${String(sequence % 60).padStart(2, "0")} GMT`,
      },
      body: { data: { card_number: card, system_time: started, balances: overrides.balances ?? FULL } },
    },
    token_events: [],
  };
}

function giftRecord(
  overrides: { balance?: string; status?: "approved" | "declined"; code?: string; card?: string } = {},
): ExchangeRecord {
  const card = overrides.card ?? "600649******0001";
  const requestId = uuid();
  const started = new Date(Date.UTC(2025, 0, 14, 10, 0, sequence)).toISOString();
  return {
    id: uuid(),
    operation: "gift_balance_inquiry",
    environment: "embedded",
    started_at: started,
    duration_ms: 12 + sequence,
    request_id: requestId,
    request: {
      method: "POST",
      url: "http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry",
      headers: { "Content-Type": "application/json", "X-Request-Id": requestId, Authorization: "[redacted]" },
      body: {
        data: {
          entry_mode: "keyed",
          card_number: card,
          pin_mode: "none",
          originator: { location_id: "store-1" },
        },
      },
    },
    response: {
      status: 201,
      headers: { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": requestId },
      body: {
        data: {
          transaction_id: uuid(),
          external_id: uuid(),
          entry_mode: "keyed",
          card_number: card,
          pin_mode: "none",
          pin_verification_result: "none",
          transaction_type: "gift_balance_inquiry",
          response_status: overrides.status ?? "approved",
          response_code: overrides.code ?? "transaction_approved",
          response_message: overrides.status === "declined" ? "Declined" : "Approved",
          balance: overrides.balance ?? "25.00",
          timestamp: started,
        },
      },
    },
    token_events: [],
  };
}

describe("money", () => {
  it("parses decimal strings into integer cents without floating point", () => {
    expect(parseAmountCents("25.00")).toBe(2500);
    expect(parseAmountCents("0.10")).toBe(10);
    expect(parseAmountCents("-3.5")).toBe(-350);
    expect(parseAmountCents("7")).toBe(700);
    expect(parseAmountCents("-0.00")).toBe(0);
    expect(parseAmountCents("12345678901.99")).toBe(1234567890199);
    expect(parseAmountCents("1.234")).toBeNull();
    expect(parseAmountCents("abc")).toBeNull();
    expect(parseAmountCents(25)).toBeNull();
    expect(formatDeltaCents(150)).toBe("+1.50");
    expect(formatDeltaCents(-25)).toBe("-0.25");
    expect(formatDeltaCents(0)).toBe("±0.00");
  });
});

describe("diffRecords", () => {
  it("treats two runs of the same inquiry as equivalent when only volatile fields differ", () => {
    const first = giftRecord();
    const second = giftRecord();
    const diff = diffRecords(first, second);
    expect(diff.equivalent).toBe(true);
    expect(diff.meaningfulChanges).toBe(0);
    expect(diff.fields).toEqual([]);
    // transaction_id, external_id, timestamp, X-Request-Id (request and response), id, request_id, started_at, duration_ms
    expect(diff.hiddenVolatileChanges).toBeGreaterThanOrEqual(8);
    expect(diff.purses).toEqual([
      expect.objectContaining({
        purse: "gift",
        before: "25.00",
        after: "25.00",
        deltaCents: 0,
        change: "same",
      }),
    ]);
  });

  it("shows volatile fields when asked, marked as volatile", () => {
    const first = { ...giftRecord(), timings: { total_ms: 30, token_ms: 12, upstream_ms: 18 } };
    const second = { ...giftRecord(), timings: { total_ms: 9, token_ms: 0, upstream_ms: 9 } };
    const diff = diffRecords(first, second, { showVolatile: true });
    const keys = diff.fields.map((field) => field.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        "record.id",
        "record.request_id",
        "record.started_at",
        "record.duration_ms",
        "request.headers.x-request-id",
        "response.headers.x-request-id",
        "response.body.data.transaction_id",
        "response.body.data.external_id",
        "response.body.data.timestamp",
        "record.timings.total_ms",
        "record.timings.token_ms",
      ]),
    );
    expect(diff.fields.every((field) => field.volatile)).toBe(true);
    expect(diff.hiddenVolatileChanges).toBe(0);
    const transaction = diff.fields.find((field) => field.key === "response.body.data.transaction_id");
    expect(transaction?.before).toBe(
      (first.response.body as { data: { transaction_id: string } }).data.transaction_id,
    );
  });

  it("reports every purse with before, after and the delta in cents", () => {
    const before = balanceRecord();
    const after = balanceRecord({ balances: { ...FULL, gift: "20.50", loyalty: "121.25", punch: "7.00" } });
    const diff = diffRecords(before, after);
    const byPurse = Object.fromEntries(diff.purses.map((row) => [row.purse, row]));
    expect(diff.purses.map((row) => row.purse)).toEqual([
      "gift",
      "gift_rewards",
      "loyalty",
      "loyalty_rewards",
      "discount",
      "promotional",
      "punch",
      "punch_rewards",
    ]);
    expect(byPurse.gift).toMatchObject({
      beforeCents: 2500,
      afterCents: 2050,
      deltaCents: -450,
      change: "changed",
    });
    expect(byPurse.loyalty).toMatchObject({
      beforeCents: 12000,
      afterCents: 12125,
      deltaCents: 125,
      change: "changed",
    });
    expect(byPurse.punch).toMatchObject({ deltaCents: 0, change: "same" });
    expect(diff.equivalent).toBe(false);
    expect(diff.meaningfulChanges).toBe(2);
    expect(diff.fields.map((field) => field.key)).toEqual([
      "response.body.data.balances.gift",
      "response.body.data.balances.loyalty",
    ]);
    // system_time and the Date header differ too, but they are volatile.
    expect(diff.hiddenVolatileChanges).toBeGreaterThan(0);
  });

  it("compares amounts by value, not by text", () => {
    const before = balanceRecord({ balances: { ...FULL, gift: "25.00" } });
    const after = balanceRecord({ balances: { ...FULL, gift: "25.0" } });
    const row = diffRecords(before, after).purses.find((purse) => purse.purse === "gift");
    expect(row).toMatchObject({ change: "same", deltaCents: 0 });
  });

  it("marks purses added or removed from a balances object, and unreadable amounts", () => {
    const { punch_rewards: _removed, ...withoutPunchRewards } = FULL;
    const before = balanceRecord();
    const after = balanceRecord({ balances: { ...withoutPunchRewards, discount: "n/a", cashback: "3.00" } });
    const byPurse = Object.fromEntries(diffRecords(before, after).purses.map((row) => [row.purse, row]));
    expect(byPurse.punch_rewards).toMatchObject({ change: "removed", before: "1.00", after: null });
    expect(byPurse.cashback).toMatchObject({ change: "added", before: null, after: "3.00" });
    expect(byPurse.discount).toMatchObject({ change: "unreadable", deltaCents: null });
  });

  it("between a gift and a balance inquiry, compares only the Gift purse and says so", () => {
    const diff = diffRecords(giftRecord({ balance: "25.00" }), balanceRecord());
    expect(diff.purseCoverage).toEqual({ before: "gift", after: "all" });
    const gift = diff.purses.find((row) => row.purse === "gift");
    expect(gift).toMatchObject({ change: "same", deltaCents: 0 });
    const others = diff.purses.filter((row) => row.purse !== "gift");
    expect(others).toHaveLength(7);
    expect(others.every((row) => row.change === "not_reported" && row.before === null)).toBe(true);
    expect(diff.warnings.join(" ")).toMatch(/different operations/);
    expect(diff.facts.find((row) => row.label === "HTTP status")).toEqual({
      label: "HTTP status",
      before: "201",
      after: "200",
      changed: true,
    });
  });

  it("labels a run that got no answer 'No answer', not status 0", () => {
    const base = giftRecord();
    const noAnswer = {
      ...base,
      response: { status: 0, headers: {}, body: { error: { code: "upstream_timeout" } } },
    };
    const diff = diffRecords(noAnswer, base);
    expect(diff.facts.find((row) => row.label === "HTTP status")).toMatchObject({
      before: "No answer",
      after: "201",
    });
    expect(diff.fields.find((field) => field.key === "response.status")).toMatchObject({
      before: "no answer",
      after: 201,
    });
  });

  it("surfaces approved vs declined and the response code among the facts", () => {
    const diff = diffRecords(
      giftRecord(),
      giftRecord({ status: "declined", code: "card_inactive", card: "600649******0027" }),
    );
    const facts = Object.fromEntries(diff.facts.map((row) => [row.label, row]));
    expect(facts["Result (response_status)"]).toMatchObject({
      before: "approved",
      after: "declined",
      changed: true,
    });
    expect(facts.response_code).toMatchObject({ before: "transaction_approved", after: "card_inactive" });
    expect(facts.Card).toMatchObject({
      before: "600649******0001",
      after: "600649******0027",
      changed: true,
    });
    expect(diff.warnings.join(" ")).toMatch(/different cards/);
    // No error on either side: no "Error code" row.
    expect(facts["Error code"]).toBeUndefined();
  });

  it("sandbox vs production: the URL and environment differ but the responses are equivalent", () => {
    const diff = diffRecords(
      balanceRecord({ environment: "embedded" }),
      balanceRecord({ environment: "production" }),
    );
    expect(diff.facts.find((row) => row.label === "Environment")).toMatchObject({ changed: true });
    expect(diff.fields.map((field) => field.key)).toEqual(["request.url"]);
    expect(diff.equivalent).toBe(true);
  });

  it("shows a status change, an error body and a text body", () => {
    const ok = balanceRecord();
    const failed: ExchangeRecord = {
      ...balanceRecord(),
      response: {
        status: 500,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: {
          errors: [{ status: "500", code: "server_error", title: "Server error", detail: "Try later." }],
        },
      },
    };
    const text: ExchangeRecord = {
      ...balanceRecord(),
      response: {
        status: 200,
        headers: { "content-type": "text/html" },
        body: "<html>oops</html>",
        body_is_text: true,
      },
    };
    const toFailure = diffRecords(ok, failed);
    expect(Object.fromEntries(toFailure.facts.map((row) => [row.label, row.after]))).toMatchObject({
      "HTTP status": "500",
      "Error code": "server_error",
    });
    expect(toFailure.purses.every((row) => row.change === "not_reported" && row.after === null)).toBe(true);
    expect(toFailure.fields.find((field) => field.key === "response.status")).toMatchObject({
      before: 200,
      after: 500,
    });

    const toText = diffRecords(ok, text);
    expect(toText.facts.find((row) => row.label === "Body")).toMatchObject({
      before: "JSON",
      after: "not JSON",
    });
    expect(toText.fields.find((field) => field.key === "response.body")).toMatchObject({
      change: "added",
      after: "<html>oops</html>",
    });
    expect(toText.fields.find((field) => field.key === "response.body_is_text")).toMatchObject({
      change: "added",
    });
  });

  it("compares headers case-insensitively", () => {
    const first = balanceRecord();
    const second = balanceRecord();
    second.response.headers = {
      "CONTENT-TYPE": "application/json; charset=utf-8",
      date: "Wed, 15 Jan 2025 10:00:00 GMT",
    };
    const diff = diffRecords(first, second);
    expect(diff.fields).toEqual([]);
    expect(diff.equivalent).toBe(true);
  });
});

describe("isVolatileField", () => {
  it("knows identifiers, timestamps, durations and dates in headers", () => {
    expect(isVolatileField(["response", "body", "data", "transaction_id"])).toBe(true);
    expect(isVolatileField(["response", "body", "data", "system_time"])).toBe(true);
    expect(isVolatileField(["response", "body", "meta", "request_id"])).toBe(true);
    expect(isVolatileField(["response", "body", "meta", "timestamp"])).toBe(true);
    expect(isVolatileField(["response", "headers", "date"], "Tue, 14 Jan 2025 10:00:00 GMT")).toBe(true);
    expect(isVolatileField(["response", "headers", "x-served-at"], "Tue, 14 Jan 2025 10:00:00 GMT")).toBe(
      true,
    );
    expect(isVolatileField(["record", "token_events", 0, "at"])).toBe(true);
    expect(isVolatileField(["record", "timings", "total_ms"])).toBe(true);
    expect(isVolatileField(["record", "token_events", 0, "type"])).toBe(true);
    expect(isVolatileField(["response", "headers", "retry-after"], "2")).toBe(false);
    expect(isVolatileField(["response", "body", "data", "balances", "gift"])).toBe(false);
    expect(isVolatileField(["response", "body", "data", "response_status"])).toBe(false);
    expect(isVolatileField(["response", "status"])).toBe(false);
  });
});

describe("record readers", () => {
  it("read the card, its last four and the purses", () => {
    expect(recordCard(giftRecord())).toBe("600649******0001");
    expect(cardLastFour("600649******0001")).toBe("0001");
    expect(cardLastFour(null)).toBeNull();
    expect(purseBalances(giftRecord({ balance: "3.10" }))).toEqual({
      coverage: "gift",
      amounts: { gift: "3.10" },
    });
    expect(purseBalances(balanceRecord()).coverage).toBe("all");
  });
});
