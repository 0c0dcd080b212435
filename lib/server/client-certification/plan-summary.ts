/**
 * A `faults` certification's verdicts as a whole: a check fails when any ended plan failed it, passes when some
 * plan passed it and none failed it, and is not observed otherwise.
 */
import type { ClientCheckResult } from "@/lib/shared/client-certification-contract";
import { PLAN_CHECKS } from "./fault-judge";
import type { PlanRow } from "./plan-store";

export function summarizePlans(plans: readonly PlanRow[]): ClientCheckResult[] {
  const ended = plans.filter((plan) => plan.endedAt !== null && Array.isArray(plan.result));
  return PLAN_CHECKS.map(({ id, title, spec, basis }) => {
    const verdicts = ended.map((plan) => ({
      plan,
      check: (plan.result as ClientCheckResult[]).find((check) => check.id === id),
    }));
    const failed = verdicts.filter((item) => item.check?.verdict === "fail");
    const passed = verdicts.filter((item) => item.check?.verdict === "pass");
    const expected = verdicts.find((item) => item.check)?.check?.expected ?? title;
    if (failed.length > 0) {
      const first = failed[0]!;
      return {
        id,
        title,
        spec,
        basis,
        verdict: "fail",
        expected,
        observed: `Failed under ${failed.length} plan(s); first, plan ${first.plan.number} (${first.plan.code || "baseline"}): ${first.check?.observed ?? ""}`,
        exchange_ids: first.check?.exchange_ids ?? [],
      };
    }
    return {
      id,
      title,
      spec,
      basis,
      verdict: passed.length > 0 ? "pass" : "not_observed",
      expected,
      observed:
        passed.length > 0
          ? `Held under ${passed.length} of ${ended.length} plan(s); not exercised by the others.`
          : `Not exercised by any of ${ended.length} plan(s).`,
      exchange_ids: [],
    };
  });
}
