/**
 * The shapes of a certification run (docs/design.md §8): cases, their checks and verdicts, the run's progress
 * events and state. Isomorphic on purpose (no secrets, no Node APIs): the runs page will render these.
 */
import type { z } from "zod";
import type {
  caseResultSchema,
  checkSchema,
  runEnvironmentSchema,
  runStateSchema,
  runStatusSchema,
  runSummarySchema,
  runWaitSchema,
  tokenRecordSchema,
  verdictCountsSchema,
  verdictSchema,
} from "@/lib/shared/certification-schemas";

// Inferred from the schemas (their fields' docs are there), which stay out of this module: pages import it.
export type Verdict = z.infer<typeof verdictSchema>;
export type VerdictCounts = z.infer<typeof verdictCountsSchema>;
export type Check = z.infer<typeof checkSchema>;
export type CaseResult = z.infer<typeof caseResultSchema>;
export type CaseInfo = Pick<CaseResult, "id" | "title" | "spec_sections">;
export type UpstreamIds = CaseResult["upstream_ids"];
export type RunStatus = z.infer<typeof runStatusSchema>;
export type TokenRecord = z.infer<typeof tokenRecordSchema>;
export type RunEnvironment = z.infer<typeof runEnvironmentSchema>;
export type RunWait = z.infer<typeof runWaitSchema>;
export type RunState = z.infer<typeof runStateSchema>;
export type RunSummary = z.infer<typeof runSummarySchema>;

/** The longest a run started from the console waits for a token to expire (AUTH-03). */
export const MAX_EXPIRY_WAIT_SECONDS = 300;

export function summarizeRun(run: RunState): RunSummary {
  return {
    id: run.id,
    status: run.status,
    environment: run.environment.name,
    client_id: run.client_id,
    operator: run.operator,
    ...(run.operator_id === undefined ? {} : { operator_id: run.operator_id }),
    allow_production_gift: run.allow_production_gift,
    total: run.total,
    done: run.done,
    started_at: run.started_at,
    ...(run.finished_at === undefined ? {} : { finished_at: run.finished_at }),
    summary: countVerdicts(run.results),
    verdicts: run.results.map((result) => ({ id: result.id, verdict: result.verdict })),
  };
}

/** The catalogue's groups in reading order (docs/design.md §8). */
const CASE_GROUP_ORDER = ["TOK", "AUTH", "GBI", "BI", "VER"] as const;

/**
 * Catalogue order for people: by group, then by number (TOK-09 after TOK-08). A run executes TOK-09 last (it
 * revokes every token on the embedded sandbox), but lists and reports read in this order. Numbers compare as
 * numbers and unknown groups come last, so no string order can put a case out of place.
 */
export function compareCaseIds(a: string, b: string): number {
  const rank = (id: string) => {
    const [group = "", number = ""] = id.split("-");
    const index = (CASE_GROUP_ORDER as readonly string[]).indexOf(group);
    return { group: index < 0 ? CASE_GROUP_ORDER.length : index, name: group, number: Number(number) };
  };
  const left = rank(a);
  const right = rank(b);
  if (left.group !== right.group) return left.group - right.group;
  if (left.name !== right.name) return left.name < right.name ? -1 : 1;
  if (left.number !== right.number) return (left.number || 0) - (right.number || 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A copy of `items` in catalogue order (see compareCaseIds). */
export function inCatalogueOrder<T extends { id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareCaseIds(a.id, b.id));
}

export type RunEvent =
  | { type: "run_started"; run_id: string; total: number; at: string }
  | { type: "case_started"; run_id: string; case: CaseInfo; index: number; total: number; at: string }
  | { type: "case_finished"; run_id: string; result: CaseResult; index: number; total: number; at: string }
  | { type: "run_finished"; run_id: string; status: RunStatus; summary: VerdictCounts; at: string };

export function countVerdicts(results: readonly { verdict: Verdict }[]): VerdictCounts {
  const counts: VerdictCounts = { pass: 0, fail: 0, observed: 0, not_applicable: 0 };
  for (const result of results) counts[result.verdict] += 1;
  return counts;
}
