/**
 * The shapes of a certification run (DESIGN.md §8): cases, their checks and verdicts, the run's progress
 * events and state. Isomorphic on purpose (no secrets, no Node APIs): the runs page will render these.
 */
import { z } from "zod";
import { environmentNameSchema, exchangeRecordSchema, isoTime, keyedObject } from "@/lib/shared/contracts";

/**
 * - `pass`: every check held.
 * - `fail`: at least one check did not hold.
 * - `observed`: the specification is silent; what the upstream did is recorded, not judged.
 * - `not_applicable`: the case could not run here; `reason` says why and what would make it applicable.
 */
const VERDICTS = ["pass", "fail", "observed", "not_applicable"] as const;
export const verdictSchema = z.enum(VERDICTS);
export type Verdict = z.infer<typeof verdictSchema>;

export const verdictCountsSchema = keyedObject(VERDICTS, z.number().int().nonnegative());
export type VerdictCounts = z.infer<typeof verdictCountsSchema>;

/** One thing a case checked: what the specification expects, what the upstream did, and whether they agree. */
const checkSchema = z.object({
  name: z.string(),
  expected: z.string(),
  observed: z.string(),
  /** null for a recorded observation that is not judged (verdict `observed`). */
  passed: z.boolean().nullable(),
  /** Ids of the exchange records this check looked at. */
  exchange_ids: z.array(z.string()).optional(),
});
export type Check = z.infer<typeof checkSchema>;

const caseResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Sections of the specification this case proves, e.g. ["2.2", "4.1"]. */
  spec_sections: z.array(z.string()),
  verdict: verdictSchema,
  /** Why not applicable, or a one-line summary of what failed. */
  reason: z.string().optional(),
  checks: z.array(checkSchema),
  exchange_ids: z.array(z.string()),
  /** Ids the API operator can find in its own logs. */
  upstream_ids: z.object({
    transaction_ids: z.array(z.string()),
    external_ids: z.array(z.string()),
    /** X-Request-Id values sent. */
    x_request_ids: z.array(z.string()),
    /** meta.request_id values of token responses. */
    meta_request_ids: z.array(z.string()),
  }),
  /** Fingerprints (first 12 hex of SHA-256) of the tokens this case used or obtained. */
  token_fingerprints: z.array(z.string()),
  started_at: isoTime,
  finished_at: isoTime,
});
export type CaseResult = z.infer<typeof caseResultSchema>;
export type CaseInfo = Pick<CaseResult, "id" | "title" | "spec_sections">;
export type UpstreamIds = CaseResult["upstream_ids"];

const runStatusSchema = z.enum(["queued", "running", "done", "cancelled", "interrupted"]);
export type RunStatus = z.infer<typeof runStatusSchema>;

const tokenRecordSchema = z.object({
  fingerprint: z.string(),
  client_id: z.string(),
  /** Why it was obtained: "session" (the run's token), or the case id that requested it. */
  purpose: z.string(),
  scope: z.string(),
  expires_in: z.number(),
  issued_at: isoTime,
});
export type TokenRecord = z.infer<typeof tokenRecordSchema>;

/** The longest a run started from the console waits for a token to expire (AUTH-03). */
export const MAX_EXPIRY_WAIT_SECONDS = 300;

const runEnvironmentSchema = z.object({
  name: environmentNameSchema,
  auth_url: z.string(),
  base_url: z.string(),
  /**
   * What answered the run's calls: the real address, or "in-process embedded sandbox" — the embedded
   * sandbox is called without a network, so nothing need be serving `auth_url` (the CLI has no server).
   */
  served_by: z.string().optional(),
});
export type RunEnvironment = z.infer<typeof runEnvironmentSchema>;

/** A case waiting on purpose (AUTH-03 waits for a token to expire): what for, and until when. */
const runWaitSchema = z.object({
  case_id: z.string(),
  what: z.literal("token_expiry"),
  until: isoTime,
});
export type RunWait = z.infer<typeof runWaitSchema>;

/** What a route or the CLI reads while a run is under way, and what the bundle is built from. */
export const runStateSchema = z.object({
  id: z.string(),
  status: runStatusSchema,
  environment: runEnvironmentSchema,
  client_id: z.string(),
  /** Who ran it, for people (the signed-in user's name; the CLI's `local:<user>`). */
  operator: z.string(),
  /** The signed-in user's id (`local` in AUTH_MODE=none), when a console route started the run. */
  operator_id: z.string().optional(),
  allow_production_gift: z.boolean(),
  case_ids: z.array(z.string()),
  total: z.number().int(),
  done: z.number().int(),
  started_at: isoTime,
  finished_at: isoTime.optional(),
  results: z.array(caseResultSchema),
  exchanges: z.array(exchangeRecordSchema),
  tokens: z.array(tokenRecordSchema),
  /** Set while a case waits, so the run's page says so rather than seeming stuck. */
  waiting: runWaitSchema.optional(),
});
export type RunState = z.infer<typeof runStateSchema>;

/** A run in the list of runs: no checks, no exchanges. */
export const runSummarySchema = z.object({
  id: z.string(),
  status: runStatusSchema,
  environment: environmentNameSchema,
  client_id: z.string(),
  operator: z.string(),
  operator_id: z.string().optional(),
  allow_production_gift: z.boolean(),
  total: z.number().int(),
  done: z.number().int(),
  started_at: isoTime,
  finished_at: isoTime.optional(),
  summary: verdictCountsSchema,
  /** Every finished case's verdict, in run order. */
  verdicts: z.array(z.object({ id: z.string(), verdict: verdictSchema })),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

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

/** The catalogue's groups in reading order (DESIGN.md §8). */
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
