/**
 * junit.xml: one test case per certification case, for any CI's test report. A failure names the checks
 * that differed; `not_applicable` is skipped with its reason; the exchanges ride in system-out.
 */
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { CaseResult, RunState } from "@/lib/shared/certification-contract";

function xmlEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");
}

/** CDATA cannot hold "]]>": split it across two sections. */
function cdata(text: string): string {
  return `<![CDATA[${text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "").replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
}

function seconds(result: CaseResult): string {
  return ((Date.parse(result.finished_at) - Date.parse(result.started_at)) / 1000).toFixed(3);
}

function checkLine(check: CaseResult["checks"][number]): string {
  const mark = check.passed === true ? "PASS" : check.passed === false ? "FAIL" : "SEEN";
  return `[${mark}] ${check.name}: expected ${check.expected}; observed ${check.observed}`;
}

export function buildJunit(run: RunState, exchangesById: Map<string, ExchangeRecord>): string {
  const failures = run.results.filter((result) => result.verdict === "fail").length;
  const skipped = run.results.filter((result) => result.verdict === "not_applicable").length;
  const total = (Date.parse(run.finished_at ?? run.started_at) - Date.parse(run.started_at)) / 1000;
  const cases = run.results.map((result) => {
    const group = result.id.split("-")[0] ?? "CASE";
    const failed = result.checks.filter((check) => check.passed === false);
    const outcome =
      result.verdict === "fail"
        ? `    <failure message="${xmlEscape(result.reason ?? "failed")}" type="check_failed">${xmlEscape(failed.map(checkLine).join("\n"))}</failure>\n`
        : result.verdict === "not_applicable"
          ? `    <skipped message="${xmlEscape(result.reason ?? "not applicable")}"/>\n`
          : "";
    const out = [
      `${result.id} ${result.title} (spec ${result.spec_sections.map((section) => `§${section}`).join(", ")})`,
      `verdict: ${result.verdict}${result.reason ? ` (${result.reason})` : ""}`,
      ...result.checks.map(checkLine),
      "",
      "exchanges:",
      ...result.exchange_ids.map((id) => JSON.stringify(exchangesById.get(id) ?? { id }, null, 2)),
    ].join("\n");
    return (
      `  <testcase classname="certification.${xmlEscape(group)}" name="${xmlEscape(`${result.id} ${result.title}`)}" time="${seconds(result)}">\n` +
      outcome +
      `    <system-out>${cdata(out)}</system-out>\n` +
      "  </testcase>\n"
    );
  });
  const properties = [
    ["environment", run.environment.name],
    ["auth_url", run.environment.auth_url],
    ["base_url", run.environment.base_url],
    ["served_by", run.environment.served_by ?? run.environment.base_url],
    ["client_id", run.client_id],
    ["operator", run.operator],
    ["run_id", run.id],
  ]
    .map(([name, value]) => `    <property name="${xmlEscape(name!)}" value="${xmlEscape(value!)}"/>\n`)
    .join("");
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="Card Services API certification" tests="${run.results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${total.toFixed(3)}">\n` +
    `<testsuite name="certification ${xmlEscape(run.environment.name)}" tests="${run.results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${total.toFixed(3)}" timestamp="${xmlEscape(run.started_at)}">\n` +
    `  <properties>\n${properties}  </properties>\n` +
    cases.join("") +
    "</testsuite>\n</testsuites>\n"
  );
}
