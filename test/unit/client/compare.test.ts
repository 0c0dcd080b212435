import { describe, expect, it } from "vitest";
import { compareVerdicts, comparisonSentence } from "@/lib/client/certification-compare";

describe("comparing a run with an earlier one", () => {
  it("names the cases whose verdict changed, and those that ran in only one run", () => {
    const sandbox = [
      { id: "TOK-01", verdict: "pass" as const },
      { id: "GBI-01", verdict: "pass" as const },
      { id: "BI-01", verdict: "pass" as const },
      { id: "AUTH-04", verdict: "pass" as const },
    ];
    const production = [
      { id: "TOK-01", verdict: "pass" as const },
      { id: "GBI-01", verdict: "not_applicable" as const },
      { id: "BI-01", verdict: "fail" as const },
      { id: "VER-01", verdict: "pass" as const },
    ];
    const result = compareVerdicts(sandbox, production);
    expect(result.changed).toBe(2);
    expect(result.same).toBe(1);
    expect(result.changes).toEqual([
      { id: "TOK-01", before: "pass", after: "pass", kind: "same" },
      { id: "GBI-01", before: "pass", after: "not_applicable", kind: "changed" },
      { id: "BI-01", before: "pass", after: "fail", kind: "changed" },
      { id: "VER-01", before: null, after: "pass", kind: "only_after" },
      { id: "AUTH-04", before: "pass", after: null, kind: "only_before" },
    ]);
  });

  it("says so when a case ran in only one of the runs, instead of 'no case changed'", () => {
    const full = [
      { id: "GBI-05", verdict: "observed" as const },
      { id: "BI-01", verdict: "pass" as const },
    ];
    const partial = [{ id: "BI-01", verdict: "pass" as const }];
    const result = compareVerdicts(full, partial);
    expect(result.oneSided).toBe(1);
    expect(comparisonSentence(result)).toBe(
      "No case changed verdict, 1 case ran in only one of the runs (1 the same).",
    );
    expect(comparisonSentence(compareVerdicts(partial, partial))).toBe(
      "No case changed verdict (1 the same).",
    );
  });
});
