/**
 * JUnit XML of a fault certification (docs/design.md §14): one case per fault family (its single-family plan)
 * and one per check (over every plan), each failure with its smallest reproducer.
 */
import type { PlanResult } from "@/lib/shared/client-certification-contract";
import { FAULT_FAMILIES, parsePlanCode } from "@/lib/shared/fault-families";
import type { CommandRun } from "./certify-client-runner";

interface JunitInput {
  baseline: { result: PlanResult; run: CommandRun; failed: string[]; code: string };
  runs: { code: string; result: PlanResult; run: CommandRun; failed: string[] }[];
  reproducers: { original: string; smallest: string; checks: string[]; observed: string }[];
  notApplicable: string[];
}

const escape = (text: string) =>
  text.replace(/[<>&"]/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[char]!);

function testCase(
  classname: string,
  name: string,
  seconds: number,
  failure?: string,
  skipped?: string,
): string {
  const head = `    <testcase classname="${escape(classname)}" name="${escape(name)}" time="${seconds.toFixed(3)}"`;
  if (failure)
    return `${head}>\n      <failure message="${escape(failure)}">${escape(failure)}</failure>\n    </testcase>`;
  if (skipped) return `${head}>\n      <skipped message="${escape(skipped)}"/>\n    </testcase>`;
  return `${head}/>`;
}

function suite(name: string, cases: string[]): string {
  const failures = cases.filter((item) => item.includes("<failure")).length;
  const skipped = cases.filter((item) => item.includes("<skipped")).length;
  return `  <testsuite name="${escape(name)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${cases.join("\n")}\n  </testsuite>`;
}

export function faultJunit(input: JunitInput): string {
  const single = new Map<string, JunitInput["runs"][number]>();
  for (const run of input.runs) {
    const parsed = parsePlanCode(run.code);
    if (parsed.ok && parsed.faults.length === 1 && !single.has(parsed.faults[0]!.family))
      single.set(parsed.faults[0]!.family, run);
  }
  const reproducerOf = (checks: string[]) =>
    input.reproducers.find((item) => item.checks.some((check) => checks.includes(check)));
  const families = FAULT_FAMILIES.map((family) => {
    const run = single.get(family.id);
    if (!run)
      return testCase(
        "faults.families",
        family.id,
        0,
        undefined,
        input.notApplicable.includes(family.id) ? "Applies to no call of the workload." : "Not run.",
      );
    const failure =
      run.failed.length > 0
        ? `${run.code}: ${run.failed.join(", ")}; smallest plan ${reproducerOf(run.failed)?.smallest ?? run.code}`
        : undefined;
    return testCase("faults.families", family.id, run.run.durationMs / 1000, failure);
  });
  const checkIds = [
    ...new Set(
      [...input.baseline.result.checks, ...input.runs.flatMap((run) => run.result.checks)].map(
        (check) => check.id,
      ),
    ),
  ];
  const checks = checkIds.map((id) => {
    const failedRuns = [input.baseline, ...input.runs].filter((run) => run.failed.includes(id));
    const exercised = input.runs.some((run) =>
      run.result.checks.some((check) => check.id === id && check.verdict !== "not_observed"),
    );
    if (failedRuns.length > 0) {
      const reproducer = reproducerOf([id]);
      return testCase(
        "faults.checks",
        id,
        0,
        `Failed under ${failedRuns.length} plan(s); smallest plan ${reproducer?.smallest ?? failedRuns[0]!.code}${reproducer?.observed ? `: ${reproducer.observed}` : ""}`,
      );
    }
    return testCase("faults.checks", id, 0, undefined, exercised ? undefined : "Not exercised by any plan.");
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="certify-client">\n${suite("fault families", families)}\n${suite("checks", checks)}\n</testsuites>\n`;
}
