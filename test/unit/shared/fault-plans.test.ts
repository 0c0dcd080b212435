/**
 * Fault plan codes, the plans `certify-client` generates and how it shrinks a failing one (docs/design.md §14).
 */
import { describe, expect, test } from "vitest";
import { FAULT_FAMILIES, parsePlanCode, planCode } from "@/lib/shared/fault-families";
import { generatePlans, shrinkPlan } from "@/lib/shared/fault-plan-generation";

describe("plan codes", () => {
  test("a code round-trips, and an unknown family or a family on the wrong kind is refused", () => {
    const parsed = parsePlanCode("gift#1:reset_after_commit,token#2:token_503");
    expect(parsed).toEqual({
      ok: true,
      faults: [
        { kind: "gift", ordinal: 1, family: "reset_after_commit" },
        { kind: "token", ordinal: 2, family: "token_503" },
      ],
    });
    expect(parsed.ok && planCode(parsed.faults)).toBe("gift#1:reset_after_commit,token#2:token_503");
    expect(parsePlanCode("gift#1:no_such_fault")).toMatchObject({ ok: false, error: /no fault family/ });
    expect(parsePlanCode("token#1:reset_after_commit")).toMatchObject({ ok: false, error: /not to token/ });
    expect(parsePlanCode("gift#1:status_500,gift#1:status_503")).toMatchObject({ ok: false });
    expect(parsePlanCode("")).toEqual({ ok: true, faults: [] });
  });

  test("at least 30 families, each applying to some kind and naming its duties", () => {
    expect(FAULT_FAMILIES.length).toBeGreaterThanOrEqual(30);
    for (const family of FAULT_FAMILIES) {
      expect(family.applies_to.length, family.id).toBeGreaterThan(0);
      expect(family.duties.length, family.id).toBeGreaterThan(0);
    }
  });
});

describe("generated plans", () => {
  const counts = { token: 1, balance: 1, gift: 1 };

  test("every applicable family once on the first call of its kind, then seeded random plans", () => {
    const plans = generatePlans({ counts, total: 40, seed: 7 });
    expect(plans.notApplicable).toEqual(expect.arrayContaining(["lookup_404", "lookup_500"]));
    expect(plans.single.length + plans.notApplicable.length).toBe(FAULT_FAMILIES.length);
    expect(plans.single.every((plan) => plan.length === 1 && plan[0]!.ordinal === 1)).toBe(true);
    expect(plans.single.length + plans.random.length).toBe(40);
    expect(plans.random.every((plan) => plan.length >= 1 && plan.length <= 3)).toBe(true);
    expect(generatePlans({ counts, total: 40, seed: 7 })).toEqual(plans);
    expect(generatePlans({ counts, total: 40, seed: 8 }).random).not.toEqual(plans.random);
  });
});

describe("shrinking", () => {
  test("removes the faults that do not matter, those on later calls first, to the smallest failing plan", async () => {
    const parsed = parsePlanCode("token#1:token_503,gift#2:status_500,gift#1:reset_after_commit");
    if (!parsed.ok) throw new Error(parsed.error);
    const tried: string[] = [];
    const { smallest } = await shrinkPlan(parsed.faults, async (plan) => {
      tried.push(planCode(plan));
      return plan.some((fault) => fault.family === "reset_after_commit");
    });
    expect(planCode(smallest)).toBe("gift#1:reset_after_commit");
    expect(tried[0]).toBe("token#1:token_503,gift#1:reset_after_commit");
  });
});
