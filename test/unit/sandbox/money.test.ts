import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PURSES } from "@/lib/sandbox/fixtures";
import { formatCents, formatPurses } from "@/lib/sandbox/money";

describe("formatCents", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [99, "0.99"],
    [100, "1.00"],
    [2500, "25.00"],
    [12000, "120.00"],
    [-150, "-1.50"],
    [123456789, "1234567.89"],
  ])("formats %i cents as %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it("always has two fraction digits and reads back as the same number of cents", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        const text = formatCents(cents);
        expect(text).toMatch(/^-?\d+\.\d{2}$/);
        const [whole = "", fraction = ""] = text.replace("-", "").split(".");
        const back = (Number(whole) * 100 + Number(fraction)) * (text.startsWith("-") ? -1 : 1);
        expect(back).toBe(cents === 0 ? 0 : cents);
      }),
    );
  });

  it("refuses amounts that are not whole cents", () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
    expect(() => formatCents(Number.NaN)).toThrow(RangeError);
  });
});

describe("formatPurses", () => {
  it("gives all eight purses, in the spec's order", () => {
    const cents = Object.fromEntries(PURSES.map((purse, index) => [purse, index * 101])) as Record<
      (typeof PURSES)[number],
      number
    >;
    const formatted = formatPurses(cents);
    expect(Object.keys(formatted)).toEqual([...PURSES]);
    expect(formatted.gift).toBe("0.00");
    expect(formatted.gift_rewards).toBe("1.01");
    expect(formatted.punch_rewards).toBe("7.07");
  });
});
