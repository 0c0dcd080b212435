import { describe, expect, it } from "vitest";
import { DEMO_CLIENTS, PURSES, TEST_CARDS, findDemoClient, findTestCard } from "@/lib/sandbox/fixtures";

describe("sandbox fixtures (docs/design.md §5 tables)", () => {
  it("has the three demo clients with their scopes and lifetimes", () => {
    expect(
      DEMO_CLIENTS.map(({ clientId, scopes, expiresIn }) => [clientId, scopes.join(" "), expiresIn]),
    ).toEqual([
      ["demo-client", "read:reports read:transactions export:reports", 7200],
      ["demo-short-lived", "read:transactions", 60],
      ["demo-reports-only", "read:reports", 7200],
    ]);
  });

  it("has the seven test cards with their behaviours", () => {
    expect(TEST_CARDS.map(({ cardNumber, behaviour }) => [cardNumber, behaviour])).toEqual([
      ["6006491000000001", "active"],
      ["6006491000000019", "active"],
      ["6006491000000027", "inactive"],
      ["6006491000000035", "server_error"],
      ["6006491000000043", "slow"],
      ["6006491000000050", "not_json"],
      ["6006491000000068", "rate_limited"],
    ]);
  });

  it("keeps every purse of every card in whole, non-negative cents", () => {
    for (const card of TEST_CARDS) {
      expect(Object.keys(card.purses).sort()).toEqual([...PURSES].sort());
      for (const cents of Object.values(card.purses)) {
        expect(Number.isSafeInteger(cents) && cents >= 0).toBe(true);
      }
    }
  });

  it("gives the first card the balances of the design table", () => {
    expect(findTestCard("6006491000000001")?.purses).toEqual({
      gift: 2500,
      gift_rewards: 500,
      loyalty: 12000,
      loyalty_rewards: 1000,
      discount: 0,
      promotional: 1500,
      punch: 700,
      punch_rewards: 100,
    });
    expect(Object.values(findTestCard("6006491000000019")?.purses ?? {}).every((cents) => cents === 0)).toBe(
      true,
    );
  });

  it("finds by exact identifier only", () => {
    expect(findDemoClient("demo-client")?.expiresIn).toBe(7200);
    expect(findDemoClient("DEMO-CLIENT")).toBeUndefined();
    expect(findTestCard("006491000000001")).toBeUndefined();
  });
});
