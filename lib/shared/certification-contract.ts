/**
 * The shapes of a certification run (DESIGN.md §8): cases, their checks and verdicts, the run's progress
 * events and state. Isomorphic on purpose (no secrets, no Node APIs): the runs page will render these.
 */
import type { EnvironmentName, ExchangeRecord } from "@/lib/shared/contracts";

/**
 * - `pass`: every check held.
 * - `fail`: at least one check did not hold.
 * - `observed`: the specification is silent; what the upstream did is recorded, not judged.
 * - `not_applicable`: the case could not run here; `reason` says why and what would make it applicable.
 */
export type Verdict = "pass" | "fail" | "observed" | "not_applicable";

/** One thing a case checked: what the specification expects, what the upstream did, and whether they agree. */
export interface Check {
  name: string;
  expected: string;
  observed: string;
  /** null for a recorded observation that is not judged (verdict `observed`). */
  passed: boolean | null;
  /** Ids of the exchange records this check looked at. */
  exchange_ids?: string[];
}

/** Ids the API operator can find in its own logs. */
export interface UpstreamIds {
  transaction_ids: string[];
  external_ids: string[];
  /** X-Request-Id values sent. */
  x_request_ids: string[];
  /** meta.request_id values of token responses. */
  meta_request_ids: string[];
}

export interface CaseInfo {
  id: string;
  title: string;
  /** Sections of the specification this case proves, e.g. ["2.2", "4.1"]. */
  spec_sections: string[];
}

export interface CaseResult extends CaseInfo {
  verdict: Verdict;
  /** Why not applicable, or a one-line summary of what failed. */
  reason?: string;
  checks: Check[];
  exchange_ids: string[];
  upstream_ids: UpstreamIds;
  /** Fingerprints (first 12 hex of SHA-256) of the tokens this case used or obtained. */
  token_fingerprints: string[];
  started_at: string;
  finished_at: string;
}

export type RunStatus = "queued" | "running" | "done" | "cancelled" | "interrupted";

export interface TokenRecord {
  fingerprint: string;
  client_id: string;
  /** Why it was obtained: "session" (the run's token), or the case id that requested it. */
  purpose: string;
  scope: string;
  expires_in: number;
  issued_at: string;
}

/** The longest a run started from the console waits for a token to expire (AUTH-03). */
export const MAX_EXPIRY_WAIT_SECONDS = 300;

export interface RunEnvironment {
  name: EnvironmentName;
  auth_url: string;
  base_url: string;
  /**
   * What answered the run's calls: the real address, or "in-process embedded sandbox" — the embedded
   * sandbox is called without a network, so nothing need be serving `auth_url` (the CLI has no server).
   */
  served_by?: string;
}

/** A case waiting on purpose (AUTH-03 waits for a token to expire): what for, and until when. */
export interface RunWait {
  case_id: string;
  what: "token_expiry";
  until: string;
}

/** What a route or the CLI reads while a run is under way, and what the bundle is built from. */
export interface RunState {
  id: string;
  status: RunStatus;
  environment: RunEnvironment;
  client_id: string;
  /** Who ran it, for people (the signed-in user's name; the CLI's `local:<user>`). */
  operator: string;
  /** The signed-in user's id (`local` in AUTH_MODE=none), when a console route started the run. */
  operator_id?: string;
  allow_production_gift: boolean;
  case_ids: string[];
  total: number;
  done: number;
  started_at: string;
  finished_at?: string;
  results: CaseResult[];
  exchanges: ExchangeRecord[];
  tokens: TokenRecord[];
  /** Set while a case waits, so the run's page says so rather than seeming stuck. */
  waiting?: RunWait;
}

/** A run in the list of runs: no checks, no exchanges. */
export interface RunSummary {
  id: string;
  status: RunStatus;
  environment: EnvironmentName;
  client_id: string;
  operator: string;
  operator_id?: string;
  allow_production_gift: boolean;
  total: number;
  done: number;
  started_at: string;
  finished_at?: string;
  summary: VerdictCounts;
  /** Every finished case's verdict, in run order. */
  verdicts: { id: string; verdict: Verdict }[];
}

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
export const CASE_GROUP_ORDER = ["TOK", "AUTH", "GBI", "BI", "VER"] as const;

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

export type VerdictCounts = Record<Verdict, number>;

export function countVerdicts(results: readonly { verdict: Verdict }[]): VerdictCounts {
  const counts: VerdictCounts = { pass: 0, fail: 0, observed: 0, not_applicable: 0 };
  for (const result of results) counts[result.verdict] += 1;
  return counts;
}
