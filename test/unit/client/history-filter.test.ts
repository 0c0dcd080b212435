import { describe, expect, it } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import {
  lastFourDigits,
  EMPTY_FILTERS,
  filterRuns,
  filtersFromSearch,
  filtersToSearch,
  hasActiveFilters,
  runLabel,
  statusesIn,
} from "@/lib/client/history-filter";
import type { HistoryRun } from "@/lib/client/history-store";

function run(
  id: string,
  operation: ExchangeRecord["operation"],
  status: number,
  options: { environment?: ExchangeRecord["environment"]; card?: string } = {},
): HistoryRun {
  const card = options.card ?? (operation === "token" ? null : "600649******0001");
  return {
    id,
    started_at: "2025-01-14T10:00:00.000Z",
    saved_at: "2025-01-14T10:00:01.000Z",
    exchange: {
      id,
      operation,
      environment: options.environment ?? "embedded",
      started_at: "2025-01-14T10:00:00.000Z",
      duration_ms: 10,
      request: { method: "POST", url: "http://x/y", headers: {}, body: null },
      response: { status, headers: {}, body: null },
      token_events: [],
    },
    card: card ? { masked: card, last4: card.slice(-4) } : null,
    location_id: null,
    token: null,
  };
}

const RUNS = [
  run("a", "gift_balance_inquiry", 201),
  run("b", "balance_inquiry", 200),
  run("c", "gift_balance_inquiry", 409),
  run("d", "balance_inquiry", 404, { card: "600649******0027", environment: "production" }),
  run("e", "token", 200),
  run("f", "balance_inquiry", 500, { environment: "sandbox", card: "600649******0035" }),
];

const ids = (runs: HistoryRun[]) => runs.map((item) => item.id);

describe("filterRuns", () => {
  it("keeps everything without filters", () => {
    expect(ids(filterRuns(RUNS, EMPTY_FILTERS))).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(hasActiveFilters(EMPTY_FILTERS)).toBe(false);
  });

  it("filters by operation, environment, card last 4 and status, combined", () => {
    expect(ids(filterRuns(RUNS, { ...EMPTY_FILTERS, operation: "gift_balance_inquiry" }))).toEqual([
      "a",
      "c",
    ]);
    expect(ids(filterRuns(RUNS, { ...EMPTY_FILTERS, environment: "production" }))).toEqual(["d"]);
    expect(ids(filterRuns(RUNS, { ...EMPTY_FILTERS, cardLast4: "0027" }))).toEqual(["d"]);
    // A partial last 4 matches the end; runs without a card (token) never match a card filter.
    expect(ids(filterRuns(RUNS, { ...EMPTY_FILTERS, cardLast4: "1" }))).toEqual(["a", "b", "c"]);
    expect(ids(filterRuns(RUNS, { ...EMPTY_FILTERS, status: "4xx" }))).toEqual(["c", "d"]);
    expect(ids(filterRuns(RUNS, { ...EMPTY_FILTERS, status: "409" }))).toEqual(["c"]);
    expect(ids(filterRuns(RUNS, { ...EMPTY_FILTERS, status: "2xx", operation: "balance_inquiry" }))).toEqual([
      "b",
    ]);
    expect(hasActiveFilters({ ...EMPTY_FILTERS, status: "5xx" })).toBe(true);
  });

  it("lists the statuses present, ascending", () => {
    expect(statusesIn(RUNS)).toEqual([200, 201, 404, 409, 500]);
  });
});

describe("filters in the URL", () => {
  it("round-trip and ignore invalid values", () => {
    const filters = {
      operation: "balance_inquiry",
      environment: "sandbox",
      cardLast4: "0035",
      status: "5xx",
    } as const;
    const params = filtersToSearch(filters, new URLSearchParams("run=abc"));
    expect(params.toString()).toBe(
      "run=abc&operation=balance_inquiry&environment=sandbox&card=0035&status=5xx",
    );
    expect(filtersFromSearch(params)).toEqual(filters);
    expect(
      filtersFromSearch(new URLSearchParams("operation=drop&environment=mars&card=12ab345&status=999x")),
    ).toEqual({
      operation: "",
      environment: "",
      cardLast4: "2345",
      status: "",
    });
    expect(filtersToSearch(EMPTY_FILTERS, params).toString()).toBe("run=abc");
  });
});

describe("lastFourDigits", () => {
  it("keeps the last 4 of a pasted full card number, whatever its separators", () => {
    expect(lastFourDigits("6006491000000035")).toBe("0035");
    expect(lastFourDigits("6006 4910 0000 0035")).toBe("0035");
    expect(lastFourDigits("600649******0035")).toBe("0035");
    expect(lastFourDigits("35")).toBe("35");
  });
});

describe("runLabel", () => {
  it("names a run in one line", () => {
    expect(runLabel(RUNS[0]!)).toBe("Gift Balance Inquiry · 600649******0001 · 201 · embedded");
    expect(runLabel(RUNS[4]!)).toBe("Token request · 200 · embedded");
  });

  it("says a run that got no answer had none, rather than status 0", () => {
    expect(runLabel(run("g", "gift_balance_inquiry", 0, { card: "600649******0043" }))).toBe(
      "Gift Balance Inquiry · 600649******0043 · no answer · embedded",
    );
  });
});
