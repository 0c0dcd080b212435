import { describe, expect, it } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { buildSpecComparison, compareGiftBalances, requestIdLookupOf } from "@/lib/client/spec-comparison";

const CARD = "600649******0001";
const BALANCES = {
  gift: "25.00",
  gift_rewards: "5.00",
  loyalty: "120.00",
  loyalty_rewards: "10.00",
  discount: "0.00",
  promotional: "15.00",
  punch: "7.00",
  punch_rewards: "1.00",
};

function record(
  operation: ExchangeRecord["operation"],
  status: number,
  body: unknown,
  extra: Partial<ExchangeRecord> & { bodyIsText?: boolean } = {},
): ExchangeRecord {
  const { bodyIsText, ...rest } = extra;
  return {
    id: `run-${operation}-${status}`,
    operation,
    environment: "embedded",
    started_at: "2025-01-14T10:00:00.000Z",
    duration_ms: 12,
    request: {
      method: "POST",
      url: "http://localhost:3000/sandbox/transaction/v1/x",
      headers: { "content-type": "application/json" },
      body: {
        data: { card_number: CARD, entry_mode: "keyed", pin_mode: "none", originator: { location_id: "l1" } },
      },
    },
    response: { status, headers: {}, body, ...(bodyIsText ? { body_is_text: true } : {}) },
    token_events: [],
    ...rest,
  };
}

function gift(data: Record<string, unknown> = {}, status = 201): ExchangeRecord {
  return record(
    "gift_balance_inquiry",
    status,
    {
      data: {
        transaction_id: "3f1c1f3e-8a55-4d8e-9d0c-5a8d7f6b1e21",
        external_id: "0b6c9b8a-2f0e-4b7a-a1e4-9d1c3b7e5f10",
        card_number: CARD,
        transaction_type: "gift_balance_inquiry",
        response_status: "approved",
        response_code: "transaction_approved",
        response_message: "Approved",
        balance: "25.00",
        ...data,
      },
    },
    { request_id: "req-id-1" },
  );
}

function balance(balances: Record<string, unknown> = BALANCES, status = 200, card = CARD): ExchangeRecord {
  return record("balance_inquiry", status, {
    data: { card_number: card, system_time: "2025-01-14T10:00:00Z", balances },
  });
}

function verdicts(comparison: ReturnType<typeof buildSpecComparison>) {
  return Object.fromEntries(comparison.rows.map((row) => [row.id, [row.gift.verdict, row.balance.verdict]]));
}

describe("buildSpecComparison", () => {
  it("fills the spec 4.5 table for a conforming pair of runs", () => {
    const comparison = buildSpecComparison(gift(), balance());
    expect(comparison.rows.map((row) => row.label)).toEqual([
      "Success status",
      "Creates a transaction",
      "Balance in response",
      "Approved or declined result",
      "In transaction history",
      "Findable by Request Id",
    ]);
    const status = comparison.rows[0]!;
    expect(status.gift).toMatchObject({ expected: "201", live: "201", verdict: "pass" });
    expect(status.balance).toMatchObject({ expected: "200", live: "200", verdict: "pass" });
    expect(verdicts(comparison)).toEqual({
      status: ["pass", "pass"],
      transaction: ["pass", "pass"],
      balance: ["pass", "pass"],
      result: ["pass", "pass"],
      history: ["inferred", "inferred"],
      request_id: ["inferred", "inferred"],
    });
    const byId = Object.fromEntries(comparison.rows.map((row) => [row.id, row]));
    expect(byId.transaction!.gift.live).toContain("3f1c1f3e-8a55-4d8e-9d0c-5a8d7f6b1e21");
    expect(byId.balance!.gift.live).toBe("balance 25.00");
    expect(byId.balance!.balance.live).toBe("balances with 8 of 8 purses");
    expect(byId.result!.gift.live).toBe("approved, transaction_approved");
    expect(byId.request_id!.gift.live).toBe("yes, by req-id-1");
    expect(comparison.giftCheck).toMatchObject({ verdict: "equal", gift: "25.00", balancesGift: "25.00" });
    expect(comparison.conforms).toBe(true);
    expect(comparison.cards).toEqual({ gift: CARD, balance: CARD });
  });

  it("uses a Request Id lookup when one is given", () => {
    const found = buildSpecComparison(gift(), balance(), { lookup: { found: true, status: 200 } });
    expect(verdicts(found).history).toEqual(["pass", "inferred"]);
    expect(verdicts(found).request_id).toEqual(["pass", "inferred"]);
    const missing = buildSpecComparison(gift(), balance(), { lookup: { found: false, status: 404 } });
    expect(verdicts(missing).history).toEqual(["fail", "inferred"]);
    expect(missing.conforms).toBe(false);
  });

  it("reads a lookup record: the same transaction_id matches, another differs, a 5xx proves nothing", () => {
    const giftId = "3f1c1f3e-8a55-4d8e-9d0c-5a8d7f6b1e21";
    const lookupRecord = (status: number, body: unknown) =>
      requestIdLookupOf(record("transaction_lookup", status, body));
    const same = lookupRecord(200, { data: { transaction_id: giftId } });
    expect(same).toEqual({ found: true, status: 200, transaction_id: giftId });
    expect(verdicts(buildSpecComparison(gift(), balance(), { lookup: same })).request_id).toEqual([
      "pass",
      "inferred",
    ]);
    const other = lookupRecord(200, { data: { transaction_id: "00000000-0000-4000-8000-000000000000" } });
    expect(verdicts(buildSpecComparison(gift(), balance(), { lookup: other })).request_id).toEqual([
      "fail",
      "inferred",
    ]);
    const missing = lookupRecord(404, { errors: [{ code: "transaction_not_found" }] });
    expect(missing.found).toBe(false);
    const failed = lookupRecord(500, { errors: [{ code: "server_error" }] });
    expect(verdicts(buildSpecComparison(gift(), balance(), { lookup: failed })).history).toEqual([
      "unknown",
      "inferred",
    ]);
  });

  it("a declined gift inquiry is a result, and its balance is not compared", () => {
    const comparison = buildSpecComparison(
      gift({
        response_status: "declined",
        response_code: "card_inactive",
        response_message: "Card inactive",
        balance: "10.00",
      }),
      balance({ ...BALANCES, gift: "10.00" }),
    );
    expect(comparison.rows.find((row) => row.id === "result")!.gift).toMatchObject({
      live: "declined, card_inactive",
      verdict: "pass",
    });
    // A declined inquiry's balance is not the purse balance: the check says so instead of comparing.
    expect(comparison.giftCheck).toMatchObject({
      verdict: "unavailable",
      gift: "10.00",
      balancesGift: "10.00",
    });
    expect(comparison.giftCheck.message).toBe(
      "The Gift Balance Inquiry was declined card_inactive: its balance 10.00 is not compared with balances.gift 10.00.",
    );
  });

  it("fails the cells that contradict the specification", () => {
    const comparison = buildSpecComparison(
      gift({ transaction_id: undefined, response_status: "maybe", balance: 25 }, 200),
      record("balance_inquiry", 201, {
        data: {
          card_number: CARD,
          transaction_id: "x",
          response_status: "approved",
          balances: { gift: "25.00" },
        },
      }),
    );
    const byId = Object.fromEntries(comparison.rows.map((row) => [row.id, row]));
    expect(byId.status!.gift).toMatchObject({ live: "200", verdict: "fail" });
    expect(byId.status!.balance).toMatchObject({ live: "201", verdict: "fail" });
    // A failed status leaves the behaviour unobservable rather than failed.
    expect(byId.transaction!.gift.verdict).toBe("unknown");
    expect(comparison.conforms).toBe(false);

    const okStatus = buildSpecComparison(
      gift({ transaction_id: undefined, response_status: "maybe", balance: 25 }),
      record("balance_inquiry", 200, {
        data: {
          card_number: CARD,
          transaction_id: "x",
          response_status: "approved",
          balances: { gift: "25.00" },
        },
      }),
    );
    expect(verdicts(okStatus)).toEqual({
      status: ["pass", "pass"],
      transaction: ["fail", "fail"],
      balance: ["fail", "fail"],
      result: ["fail", "fail"],
      history: ["fail", "fail"],
      request_id: ["fail", "fail"],
    });
    expect(okStatus.rows.find((row) => row.id === "balance")!.balance.note).toMatch(/gift_rewards/);
  });

  it("explains failed runs instead of judging them", () => {
    const serverError = record("gift_balance_inquiry", 500, {
      errors: [{ status: "500", code: "server_error", title: "Server error", detail: "x" }],
    });
    const notJson = record("balance_inquiry", 200, "<html>not json</html>", { bodyIsText: true });
    const comparison = buildSpecComparison(serverError, notJson);
    expect(comparison.rows[0]!.gift).toMatchObject({
      live: "500",
      verdict: "fail",
      note: "500 server_error",
    });
    expect(comparison.rows[0]!.balance).toMatchObject({ live: "200", verdict: "pass" });
    expect(comparison.rows[1]!.balance).toMatchObject({
      live: "200 with a body that is not JSON",
      verdict: "unknown",
    });
    expect(comparison.giftCheck).toMatchObject({ verdict: "unavailable" });
    expect(comparison.giftCheck.message).toMatch(/Gift Balance Inquiry did not succeed \(500 server_error\)/);
  });

  it("takes history and findability of a gift run whose body is not JSON from the lookup (one source of truth)", () => {
    const notJsonGift = record("gift_balance_inquiry", 201, "<html>not json</html>", {
      bodyIsText: true,
      request_id: "req-unread",
    });
    const found = { found: true, status: 200, transaction_id: "txn-found" };
    const rows = buildSpecComparison(notJsonGift, null, { lookup: found }).rows;
    for (const id of ["history", "request_id"] as const) {
      const row = rows.find((candidate) => candidate.id === id)!;
      expect(row.gift.verdict).toBe("pass");
      expect(row.gift.live).toContain("txn-found");
    }
    const missing = buildSpecComparison(notJsonGift, null, {
      lookup: { found: false, status: 404, transaction_id: null },
    }).rows;
    expect(missing.find((row) => row.id === "history")!.gift.verdict).toBe("fail");
  });

  it("shows 'not run' for a missing side", () => {
    const comparison = buildSpecComparison(gift(), null);
    expect(
      comparison.rows.every((row) => row.balance.live === "not run" && row.balance.verdict === "unknown"),
    ).toBe(true);
    expect(comparison.giftCheck.message).toMatch(/Run both/);
    expect(comparison.conforms).toBe(false);
  });
});

describe("compareGiftBalances", () => {
  it("compares in cents", () => {
    expect(
      compareGiftBalances(gift({ balance: "25.00" }), balance({ ...BALANCES, gift: "25.0" })).verdict,
    ).toBe("equal");
    const different = compareGiftBalances(
      gift({ balance: "25.00" }),
      balance({ ...BALANCES, gift: "24.99" }),
    );
    expect(different).toMatchObject({ verdict: "different", gift: "25.00", balancesGift: "24.99" });
    expect(different.message).toBe("The Gift balance 25.00 differs from balances.gift 24.99.");
  });

  it("refuses to compare different cards or unreadable amounts", () => {
    expect(compareGiftBalances(gift(), balance(BALANCES, 200, "600649******0019")).message).toMatch(
      /different cards/,
    );
    expect(compareGiftBalances(gift({ balance: "lots" }), balance()).verdict).toBe("unavailable");
    expect(compareGiftBalances(gift(), balance({ ...BALANCES, gift: null })).verdict).toBe("unavailable");
  });
});
