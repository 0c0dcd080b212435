/** results.csv: one row per case, for a spreadsheet or a submission sheet. */
import { csvCell } from "@/lib/server/util/csv";
import type { CaseResult } from "@/lib/shared/certification-contract";

const COLUMNS = [
  "case_id",
  "title",
  "spec_sections",
  "verdict",
  "reason",
  "checks_passed",
  "checks_failed",
  "checks_observed",
  "exchange_ids",
  "transaction_ids",
  "external_ids",
  "x_request_ids",
  "meta_request_ids",
  "token_fingerprints",
  "started_at",
  "finished_at",
];

export function buildResultsCsv(results: readonly CaseResult[]): string {
  const rows = results.map((result) => [
    result.id,
    result.title,
    result.spec_sections.join(" "),
    result.verdict,
    result.reason ?? "",
    String(result.checks.filter((check) => check.passed === true).length),
    String(result.checks.filter((check) => check.passed === false).length),
    String(result.checks.filter((check) => check.passed === null).length),
    result.exchange_ids.join(" "),
    result.upstream_ids.transaction_ids.join(" "),
    result.upstream_ids.external_ids.join(" "),
    result.upstream_ids.x_request_ids.join(" "),
    result.upstream_ids.meta_request_ids.join(" "),
    result.token_fingerprints.join(" "),
    result.started_at,
    result.finished_at,
  ]);
  return [COLUMNS, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
