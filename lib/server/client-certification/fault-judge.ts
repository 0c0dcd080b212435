/**
 * Judges one fault plan's calls (docs/design.md §14): docs/design.md §11's duties that hold on any run, and the checks that only
 * faults reveal. Each check names its basis: a clause of the API specification, or HTTP practice (RFC 9110).
 * Pure: facts in, verdicts out. A plan passes when no check fails.
 */
import type { AnyClientCheckId, ClientCheckResult } from "@/lib/shared/client-certification-contract";
import { TOLERANT_READER_FAMILIES } from "@/lib/shared/fault-families";
import {
  RETRY_AFTER_TOLERANCE_MS,
  declineNoRetry,
  judgement,
  renewAfter401,
  requestIdUnique,
  secretOnlyAtToken,
  wellFormed,
  type CallFacts,
  type JudgeInput,
  type Judgement,
} from "./judge";

/** The run the tolerant-reader check compares with: the same plan without its tolerant-reader faults. */
interface ReferenceRun {
  code: string;
  calls: readonly CallFacts[];
  exitCode: number | null;
}

export interface PlanJudgeInput {
  calls: readonly CallFacts[];
  /** The application's CARD_API_TIMEOUT_MS. */
  clientTimeoutMs: number;
  exitCode: number | null;
  /** The plan's faults' families, exercised or not. */
  families: readonly string[];
  reference: ReferenceRun | null;
}

/** Slack on the timeout bound: the client's timeout + 2 s (docs/design.md §14). */
const TIMEOUT_SLACK_MS = 2000;
/** A failing token endpoint is retried at most this many times per failure, this far apart at least. */
const TOKEN_RETRIES_PER_FAILURE = 3;
const TOKEN_RETRY_SPACING_MS = 500;
/** Without Retry-After, a 429 is retried no sooner than this. */
const BARE_429_WAIT_MS = 500;

const isGift = (call: CallFacts) => call.operation === "gift_balance_inquiry";
const isToken = (call: CallFacts) => call.operation === "token";
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const CUT_FAMILIES = new Set(["body_cut", "body_cut_close", "html_body", "duplicate_409"]);
const TOKEN_FAILURES = new Set([
  "token_html",
  "token_body_cut",
  "token_slow",
  "token_reset",
  "token_500",
  "token_503",
]);
const SLOW_FAMILIES = new Set(["late_headers", "drip_body", "token_slow"]);

/** The client could not know whether the Gift Balance Inquiry was recorded. */
function outcomeUnknown(call: CallFacts): boolean {
  if (!isGift(call)) return false;
  return (
    call.status >= 500 ||
    call.status === 0 ||
    call.behaviour === "client_closed" ||
    CUT_FAMILIES.has(call.fault ?? "")
  );
}

/** A later call that told the client what became of `unknown`: its lookup answered, or its resend answered. */
function learned(unknown: CallFacts, call: CallFacts): boolean {
  if (call.operation === "transaction_lookup" && call.lookup_id === unknown.request_id)
    return call.status === 200 || call.status === 404;
  return isGift(call) && call.request_id === unknown.request_id && !outcomeUnknown(call) && call.status !== 0;
}

function noDuplicateWrite({ calls }: Pick<PlanJudgeInput, "calls">): Judgement {
  const expected =
    "After a Gift Balance Inquiry whose outcome the client could not know (5xx, reset, a cut or non-JSON body, no answer in time), no Gift Balance Inquiry for that card under a new Request Id before a lookup or a resend with the same Request Id told the outcome.";
  const unknowns = calls.filter(outcomeUnknown);
  if (unknowns.length === 0)
    return judgement(null, expected, "No Gift Balance Inquiry ended with an unknown outcome.", []);
  for (const unknown of unknowns) {
    const later = calls.filter((call) => call.started_ms >= unknown.ended_ms - 1 && call !== unknown);
    for (const call of later) {
      if (learned(unknown, call)) break;
      if (isGift(call) && call.card === unknown.card && call.request_id !== unknown.request_id)
        return judgement(
          false,
          expected,
          `After ${describeUnknown(unknown)} of X-Request-Id ${unknown.request_id ?? "(none)"}, a new Gift Balance Inquiry for ${unknown.card ?? "the card"} under X-Request-Id ${call.request_id ?? "(none)"} before learning the outcome.`,
          [unknown.id, call.id],
        );
    }
  }
  return judgement(
    true,
    expected,
    `${unknowns.length} inquiry(ies) with an unknown outcome; none written again under a new Request Id before the outcome was known.`,
    unknowns.map((call) => call.id),
  );
}

function describeUnknown(call: CallFacts): string {
  if (call.status === 0) return "a connection reset";
  if (call.behaviour === "client_closed") return "no answer in time";
  if (call.fault && CUT_FAMILIES.has(call.fault)) return `an unreadable answer (${call.fault})`;
  return `a ${call.status}`;
}

function timeoutBound({
  calls,
  clientTimeoutMs,
}: Pick<PlanJudgeInput, "calls" | "clientTimeoutMs">): Judgement {
  const bound = clientTimeoutMs + TIMEOUT_SLACK_MS;
  const expected = `A call that gets no answer in time is abandoned within the client's timeout + 2 s (${seconds(bound)}).`;
  const held = calls.filter((call) => SLOW_FAMILIES.has(call.fault ?? ""));
  if (held.length === 0)
    return judgement(null, expected, "No answer was held past the client's timeout.", []);
  for (const call of held) {
    const waited = call.ended_ms - call.started_ms;
    if (call.behaviour !== "client_closed" || waited > bound)
      return judgement(
        false,
        expected,
        call.behaviour === "client_closed"
          ? `A ${call.operation} call was abandoned only after ${seconds(waited)}.`
          : `A ${call.operation} call waited ${seconds(waited)} for the whole held answer (${call.fault}).`,
        [call.id],
      );
  }
  const longest = Math.max(...held.map((call) => call.ended_ms - call.started_ms));
  return judgement(
    true,
    expected,
    `Gave up after at most ${seconds(longest)}.`,
    held.map((call) => call.id),
  );
}

function tokenFailed(call: CallFacts): boolean {
  return (
    isToken(call) &&
    (call.status !== 200 || TOKEN_FAILURES.has(call.fault ?? "") || call.behaviour === "client_closed")
  );
}

function tokenBackoff({ calls }: Pick<PlanJudgeInput, "calls">): Judgement {
  const expected = `A failing token endpoint gets at most ${TOKEN_RETRIES_PER_FAILURE} requests per failure, spaced at least ${seconds(TOKEN_RETRY_SPACING_MS)} apart; never a tight loop.`;
  const tokens = calls.filter(isToken);
  const failures = tokens.filter(tokenFailed);
  if (failures.length === 0) return judgement(null, expected, "The token endpoint never failed.", []);
  for (const failure of failures) {
    const after = tokens.filter((call) => call.started_ms > failure.started_ms);
    const until = after.findIndex((call) => !tokenFailed(call));
    const retries = until < 0 ? after : after.slice(0, until + 1);
    if (retries.length > TOKEN_RETRIES_PER_FAILURE)
      return judgement(false, expected, `${retries.length} token requests followed one failure.`, [
        failure.id,
        ...retries.map((call) => call.id),
      ]);
    let previous = failure;
    for (const retry of retries) {
      const gap = retry.started_ms - previous.ended_ms;
      if (gap < TOKEN_RETRY_SPACING_MS - RETRY_AFTER_TOLERANCE_MS)
        return judgement(
          false,
          expected,
          `A token request came ${seconds(gap)} after the failed one before it.`,
          [previous.id, retry.id],
        );
      previous = retry;
    }
  }
  return judgement(
    true,
    expected,
    `${failures.length} token failure(s), each retried with backoff.`,
    failures.map((call) => call.id),
  );
}

/** The shape of a run a tolerant reader keeps whatever extra it is told: the calls' kinds in order and the exit status. */
function shape(calls: readonly CallFacts[]): string {
  return calls.map((call) => call.operation ?? "other").join(" → ");
}

function tolerantReader({
  calls,
  exitCode,
  families,
  reference,
}: Pick<PlanJudgeInput, "calls" | "exitCode" | "families" | "reference">): Judgement {
  const expected =
    "Unknown fields, unknown enum values and an extra purse change neither the client's calls nor its exit status against the same plan without those faults.";
  const exercised = calls.filter((call) => TOLERANT_READER_FAMILIES.has(call.fault ?? ""));
  if (!families.some((family) => TOLERANT_READER_FAMILIES.has(family)) || exercised.length === 0)
    return judgement(null, expected, "No answer carried anything unknown.", []);
  if (!reference)
    return judgement(
      null,
      expected,
      "The same plan without the unknown content has not been run to compare with.",
      exercised.map((call) => call.id),
    );
  const against = reference.code === "" ? "the baseline" : `plan ${reference.code}`;
  if (exitCode !== null && reference.exitCode !== null && exitCode !== reference.exitCode)
    return judgement(
      false,
      expected,
      `Exit status ${exitCode}, against ${reference.exitCode} for ${against}.`,
      exercised.map((call) => call.id),
    );
  if (shape(calls) !== shape(reference.calls))
    return judgement(
      false,
      expected,
      `Calls ${shape(calls) || "(none)"}, against ${shape(reference.calls) || "(none)"} for ${against}.`,
      exercised.map((call) => call.id),
    );
  return judgement(
    true,
    expected,
    `The same calls and exit status as ${against}.`,
    exercised.map((call) => call.id),
  );
}

function noRetry403({ calls }: Pick<PlanJudgeInput, "calls">): Judgement {
  const expected = "A 403 is not retried with the same token.";
  const refused = calls.filter((call) => call.status === 403);
  if (refused.length === 0) return judgement(null, expected, "No call was answered 403.", []);
  for (const call of refused) {
    // The same call again: same operation, body and lookup id. Another card's inquiry is a new call.
    const again = calls.find(
      (later) =>
        later.started_ms >= call.ended_ms &&
        later.operation === call.operation &&
        later.body_sha256 === call.body_sha256 &&
        later.lookup_id === call.lookup_id &&
        later.token_issued_at_ms === call.token_issued_at_ms,
    );
    if (again)
      return judgement(
        false,
        expected,
        `The ${call.operation} refused 403 was sent again with the same token.`,
        [call.id, again.id],
      );
  }
  return judgement(
    true,
    expected,
    "Not retried with the token that was refused.",
    refused.map((call) => call.id),
  );
}

function retryAfterAll({ calls }: Pick<PlanJudgeInput, "calls">): Judgement {
  const expected =
    "After a 429, no call within Retry-After (seconds or an HTTP-date); above 120 s, giving up without a call inside the window; without it, no retry sooner than 0.5 s.";
  const limited = calls.filter((call) => call.status === 429);
  if (limited.length === 0) return judgement(null, expected, "No call was answered 429.", []);
  const notes: string[] = [];
  for (const call of limited) {
    const wait = call.retry_after_ms ?? BARE_429_WAIT_MS;
    const next = calls.find(
      (later) => later.started_ms >= call.ended_ms && later !== call && !isToken(later),
    );
    if (!next) {
      notes.push("gave up");
      continue;
    }
    const waited = next.started_ms - call.ended_ms;
    if (waited < wait - RETRY_AFTER_TOLERANCE_MS) {
      const asked =
        call.retry_after_ms === null || call.retry_after_ms === undefined
          ? "no Retry-After"
          : `Retry-After ${seconds(wait)}`;
      return judgement(false, expected, `The next call came ${seconds(waited)} after the 429 (${asked}).`, [
        call.id,
        next.id,
      ]);
    }
    notes.push(`waited ${seconds(waited)}`);
  }
  return judgement(
    true,
    expected,
    `After ${limited.length} 429(s): ${notes.join("; ")}.`,
    limited.map((call) => call.id),
  );
}

/** Token requests allowed: one, plus one per answer that made the token unusable and per failed token request. */
function planTokenReuse({ calls }: Pick<PlanJudgeInput, "calls">): Judgement {
  const expected =
    "Token requests ≤ 1 + the times the token became unusable (401, a one-second token) or the token request failed.";
  const tokens = calls.filter(isToken);
  const others = calls.filter((call) => !isToken(call));
  if (tokens.length === 0 || others.length < 1)
    return judgement(null, expected, "Not a token request followed by another call.", []);
  const unusable =
    others.filter((call) => call.status === 401).length +
    tokens.filter((call) => tokenFailed(call) || call.fault === "token_expires_1").length;
  const allowed = 1 + unusable;
  return judgement(
    tokens.length <= allowed,
    expected,
    `${tokens.length} token request(s) for ${others.length} other call(s); ${allowed} allowed.`,
    tokens.map((call) => call.id),
  );
}

/**
 * docs/design.md §11's renewal duty on a plan that has ended: a failed token request is no renewal (the token endpoint's own
 * faults are judged by CLI-TOKEN-BACKOFF), and what has not come after the 401 by the end never will.
 */
function planRenew401(input: PlanJudgeInput): Judgement {
  const refused = input.calls.find((call) => call.behaviour === "revoked");
  const usable = input.calls.filter((call) => !tokenFailed(call));
  const judged = renewAfter401({ calls: usable, armedAt: {} });
  if (judged.verdict !== "not_observed" || !refused) return judged;
  const after = input.calls.filter((call) => call.started_ms >= refused.ended_ms && call !== refused);
  if (after.some(tokenFailed))
    return judgement(
      null,
      judged.expected,
      "The token endpoint failed after the 401: there was no token to retry with.",
      [refused.id],
    );
  const renewed = after.some(isToken);
  return judgement(
    false,
    judged.expected,
    renewed
      ? `A new token was requested after the 401, but the refused ${refused.operation} was never sent again.`
      : `The run ended after the ${refused.operation}'s 401 without a new token or a retry.`,
    [refused.id, ...after.map((call) => call.id)],
  );
}

interface PlanCheck {
  id: AnyClientCheckId;
  title: string;
  spec: string;
  basis: string;
  judge: (input: PlanJudgeInput) => Judgement;
}

const asSteps = (input: PlanJudgeInput): JudgeInput => ({ calls: input.calls, armedAt: {} });

/** The checks every plan is judged by, in the order shown. */
export const PLAN_CHECKS: readonly PlanCheck[] = [
  {
    id: "CLI-NO-DUPLICATE-WRITE",
    title: "No second write while the first one's outcome is unknown",
    spec: "API specification §4.3, §8",
    basis:
      "API specification §4.3 (a recorded transaction is found by its Request Id) and API specification §8; HTTP practice: POST is not idempotent (RFC 9110 §9.2.2)",
    judge: noDuplicateWrite,
  },
  {
    id: "CLI-TIMEOUT-BOUND",
    title: "Gives up on an answer that does not come",
    spec: "—",
    basis:
      "HTTP practice: a client bounds its wait for the headers and the body (the specification shows no timeout)",
    judge: timeoutBound,
  },
  {
    id: "CLI-TOKEN-BACKOFF",
    title: "Backs off a failing token endpoint",
    spec: "API specification §5.6",
    basis:
      "API specification §5.6 (tokens only from the token endpoint); HTTP practice: 5xx is retried with backoff (RFC 9110 §15.6)",
    judge: tokenBackoff,
  },
  {
    id: "CLI-TOLERANT-READER",
    title: "Ignores what it does not know",
    spec: "API specification §2",
    basis:
      'API specification §2 (fields and values "not shown" exist); HTTP practice: a recipient ignores what it does not recognise (RFC 9110 §5.1)',
    judge: tolerantReader,
  },
  {
    id: "CLI-NO-RETRY-403",
    title: "Does not retry a 403 with the same token",
    spec: "API specification §7",
    basis: "API specification §7 (403: the token lacks the scope); HTTP practice: RFC 9110 §15.5.4",
    judge: noRetry403,
  },
  {
    id: "CLI-RETRY-AFTER",
    title: "Honours Retry-After in both forms",
    spec: "API specification §7",
    basis:
      "HTTP practice: Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3; 429 in RFC 6585 §4)",
    judge: retryAfterAll,
  },
  {
    id: "CLI-TOKEN-REUSE",
    title: "Caches and reuses the token",
    spec: "API specification §5.7",
    basis: "API specification §5.7",
    judge: planTokenReuse,
  },
  {
    id: "CLI-RENEW-401",
    title: "On a 401, renews once and retries the same call",
    spec: "API specification §5.8",
    basis: "API specification §5.8",
    judge: planRenew401,
  },
  {
    id: "CLI-REQUEST-ID-UNIQUE",
    title: "A unique X-Request-Id per Gift Balance Inquiry",
    spec: "API specification §8, §4.3",
    basis: "API specification §8, §4.3",
    judge: (input) => requestIdUnique(asSteps(input)),
  },
  {
    id: "CLI-DECLINE-NO-RETRY",
    title: "A declined inquiry is not sent again",
    spec: "API specification §4.3.4",
    basis: "API specification §4.3.4",
    judge: (input) => declineNoRetry(asSteps(input)),
  },
  {
    id: "CLI-SECRET-ONLY-AT-TOKEN",
    title: "The secret goes to the token endpoint only",
    spec: "API specification §5.9",
    basis: "API specification §5.9",
    judge: (input) => secretOnlyAtToken(asSteps(input)),
  },
  {
    id: "CLI-WELL-FORMED",
    title: "Every call well formed",
    spec: "API specification §4.1–4.4",
    basis: "API specification §4.1–4.4",
    judge: (input) => wellFormed(asSteps(input)),
  },
];

export function judgePlan(input: PlanJudgeInput): ClientCheckResult[] {
  const calls = [...input.calls].sort((a, b) => a.started_ms - b.started_ms);
  return PLAN_CHECKS.map(({ id, title, spec, basis, judge }) => ({
    id,
    title,
    spec,
    basis,
    ...judge({ ...input, calls }),
  }));
}

/** The code of the run a plan's tolerant-reader faults are compared with: the plan without them. */
export function referenceCode(faults: readonly { family: string; code: string }[]): string {
  return faults
    .filter((fault) => !TOLERANT_READER_FAMILIES.has(fault.family))
    .map((fault) => fault.code)
    .join(",");
}
