/**
 * The eight checks of an integration certification (docs/design.md §11), judged from the recorded traffic alone:
 * what the application did, never how it is built. A check whose traffic did not happen is `not_observed`,
 * never a pass by default. Pure: facts in, verdicts out.
 */
import {
  CLIENT_CHECKS,
  type ClientCheckInfo,
  type ClientCheckId,
  type ClientCheckResult,
  type ClientStepId,
  type ClientVerdict,
} from "@/lib/shared/client-certification-contract";

/** What the judge needs of one recorded call; computed from the raw call before it was redacted. */
export interface CallFacts {
  id: string;
  step: ClientStepId | null;
  operation: string | null;
  started_ms: number;
  ended_ms: number;
  status: number;
  behaviour: string | null;
  /** The X-Request-Id header sent. */
  request_id: string | null;
  /** The Request Id a lookup asked for. */
  lookup_id: string | null;
  /** The card number, masked (first 6 + last 4). */
  card: string | null;
  /** SHA-256 of the body's JSON, keys sorted: two sends of one request have the same. */
  body_sha256: string | null;
  token_issued_at_ms: number | null;
  declined: boolean;
  /** Where the client secret appeared (e.g. "header x-client-secret", "query", "body"). */
  secret_in: string[];
  malformed: string[];
  /** In `faults` mode (docs/design.md §14): the plan armed when the call came, its number among its kind, its fault. */
  plan_id?: string | null;
  kind_seq?: number | null;
  fault?: string | null;
  /** What the answer's Retry-After asked, in ms from the answer's end (a date made relative); null when absent. */
  retry_after_ms?: number | null;
}

export interface JudgeInput {
  calls: readonly CallFacts[];
  /** When each step was armed (ms), for the steps armed so far. */
  armedAt: Partial<Record<ClientStepId, number>>;
}

export type Judgement = Pick<ClientCheckResult, "verdict" | "expected" | "observed" | "exchange_ids">;

const isGift = (call: CallFacts) => call.operation === "gift_balance_inquiry";
const isToken = (call: CallFacts) => call.operation === "token";

function verdictOf(held: boolean | null): ClientVerdict {
  return held === null ? "not_observed" : held ? "pass" : "fail";
}

export function judgement(
  held: boolean | null,
  expected: string,
  observed: string,
  ids: string[],
): Judgement {
  return { verdict: verdictOf(held), expected, observed, exchange_ids: [...new Set(ids)] };
}

function tokenReuse({ calls, armedAt }: JudgeInput): Judgement {
  const expected =
    "Token requests ≤ 1 + the times the token became unusable (revoked, expired); never one per call.";
  const tokens = calls.filter(isToken);
  const authenticated = calls.filter((call) => !isToken(call));
  if (tokens.length === 0 || authenticated.length < 2)
    return judgement(null, expected, "Not yet a token request followed by two or more calls.", []);
  const expiredAnswers = authenticated.filter((call) => call.status === 401 && call.behaviour !== "revoked");
  const allowed = 1 + (armedAt.revoked !== undefined ? 1 : 0) + expiredAnswers.length;
  const observed = `${tokens.length} token request(s) for ${authenticated.length} other call(s); ${allowed} allowed.`;
  return judgement(
    tokens.length <= allowed,
    expected,
    observed,
    tokens.map((call) => call.id),
  );
}

export function renewAfter401({ calls }: JudgeInput): Judgement {
  const expected =
    "After the revoked step's 401: exactly one token request, then that same call retried once, with the same X-Request-Id and the new token.";
  const index = calls.findIndex((call) => call.behaviour === "revoked");
  if (index < 0) return judgement(null, expected, "No call was answered 401 for a revoked token.", []);
  const refused = calls[index]!;
  const after = calls.slice(index + 1);
  if (after.length === 0)
    return judgement(null, expected, "Nothing was sent after the 401 yet.", [refused.id]);
  const firstOther = after.findIndex((call) => !isToken(call));
  const tokensBefore = (firstOther < 0 ? after : after.slice(0, firstOther)).filter(isToken);
  const retry = firstOther < 0 ? undefined : after[firstOther];
  const ids = [refused.id, ...tokensBefore.map((call) => call.id), ...(retry ? [retry.id] : [])];
  if (tokensBefore.length !== 1)
    return judgement(false, expected, `${tokensBefore.length} token requests followed the 401.`, ids);
  if (!retry) return judgement(null, expected, "A new token was requested; the retry has not come yet.", ids);
  const problem = retryProblem(refused, retry, after, tokensBefore[0]!);
  return judgement(
    problem === null,
    expected,
    problem ?? "One token request, then the same call retried once with the new token.",
    ids,
  );
}

function retryProblem(
  refused: CallFacts,
  retry: CallFacts,
  after: CallFacts[],
  token: CallFacts,
): string | null {
  if (retry.operation !== refused.operation)
    return `The next call after the token request was a ${retry.operation ?? "unknown"} call, not the refused ${refused.operation}.`;
  if (retry.request_id !== refused.request_id)
    return `The retry carried X-Request-Id ${retry.request_id ?? "(none)"}, not ${refused.request_id ?? "(none)"}.`;
  if (retry.body_sha256 !== refused.body_sha256) return "The retry's body differs from the refused call's.";
  if (retry.token_issued_at_ms === null || retry.token_issued_at_ms < token.started_ms)
    return "The retry did not carry the new token.";
  const sameAgain = after.filter(
    (call) =>
      call !== retry &&
      call.step === refused.step &&
      call.operation === refused.operation &&
      call.request_id === refused.request_id &&
      call.body_sha256 === refused.body_sha256,
  );
  if (refused.request_id !== null && sameAgain.length > 0)
    return `The call was retried ${sameAgain.length + 1} times, not once.`;
  return null;
}

export function requestIdUnique({ calls }: JudgeInput): Judgement {
  const expected =
    "Every Gift Balance Inquiry carries an X-Request-Id, and no two with different bodies share one.";
  const gifts = calls.filter(isGift);
  if (gifts.length === 0) return judgement(null, expected, "No Gift Balance Inquiry was made.", []);
  const missing = gifts.filter((call) => !call.request_id);
  if (missing.length > 0)
    return judgement(
      false,
      expected,
      `${missing.length} Gift Balance Inquiry(ies) without X-Request-Id.`,
      missing.map((call) => call.id),
    );
  const bodies = new Map<string, CallFacts>();
  for (const call of gifts) {
    const first = bodies.get(call.request_id!);
    if (first && first.body_sha256 !== call.body_sha256)
      return judgement(
        false,
        expected,
        `X-Request-Id ${call.request_id} was sent with two different bodies.`,
        [first.id, call.id],
      );
    if (!first) bodies.set(call.request_id!, call);
  }
  const observed = `${gifts.length} Gift Balance Inquiries, ${bodies.size} distinct X-Request-Id value(s); repeats resent the same request.`;
  return judgement(
    true,
    expected,
    observed,
    gifts.map((call) => call.id),
  );
}

function timeoutLookup({ calls }: JudgeInput): Judgement {
  const expected =
    "After the unanswered call, the transaction is looked up by its Request Id (or the same request resent with the same X-Request-Id) before any new Gift Balance Inquiry for that card.";
  const index = calls.findIndex((call) => call.behaviour === "client_closed" || call.behaviour === "delayed");
  if (index < 0)
    return judgement(null, expected, "No Gift Balance Inquiry was held by the timeout step.", []);
  const held = calls[index]!;
  if (held.behaviour === "delayed")
    return judgement(true, expected, "The application waited for the held answer (it came after 30 s).", [
      held.id,
    ]);
  const next = calls
    .slice(index + 1)
    .find(
      (call) =>
        (call.operation === "transaction_lookup" && call.lookup_id === held.request_id) ||
        (isGift(call) && call.card === held.card),
    );
  if (!next)
    return judgement(null, expected, "The application gave up; nothing has followed it yet.", [held.id]);
  if (next.operation === "transaction_lookup")
    return judgement(true, expected, `Looked up Request Id ${held.request_id} (answered ${next.status}).`, [
      held.id,
      next.id,
    ]);
  if (next.request_id === held.request_id)
    return judgement(true, expected, `Resent the same request with X-Request-Id ${held.request_id}.`, [
      held.id,
      next.id,
    ]);
  return judgement(
    false,
    expected,
    `A new Gift Balance Inquiry for ${held.card ?? "the card"} under X-Request-Id ${next.request_id ?? "(none)"} before looking up ${held.request_id}.`,
    [held.id, next.id],
  );
}

export function declineNoRetry({ calls }: JudgeInput): Judgement {
  const expected = "The declined inquiry is not sent again under a new X-Request-Id.";
  const index = calls.findIndex((call) => isGift(call) && call.declined);
  if (index < 0) return judgement(null, expected, "No Gift Balance Inquiry was declined.", []);
  const declined = calls[index]!;
  const again = calls
    .slice(index + 1)
    .filter((call) => isGift(call) && call.card === declined.card && call.request_id !== declined.request_id);
  if (again.length > 0)
    return judgement(
      false,
      expected,
      `Sent again ${again.length} time(s) under a new X-Request-Id (${again[0]!.request_id ?? "none"}).`,
      [declined.id, ...again.map((call) => call.id)],
    );
  return judgement(true, expected, `Declined (${declined.request_id}); not sent again under a new id.`, [
    declined.id,
  ]);
}

/** Timers may fire a few milliseconds early; less than this counts as within Retry-After. */
export const RETRY_AFTER_TOLERANCE_MS = 50;

function retryAfter({ calls }: JudgeInput): Judgement {
  const expected = "No call within Retry-After (2 s) of the 429.";
  const index = calls.findIndex((call) => call.behaviour === "rate_limited");
  if (index < 0) return judgement(null, expected, "No call was answered 429.", []);
  const limited = calls[index]!;
  const next = calls[index + 1];
  if (!next) return judgement(null, expected, "Nothing was sent after the 429 yet.", [limited.id]);
  const waited = next.started_ms - limited.ended_ms;
  const held = waited >= 2000 - RETRY_AFTER_TOLERANCE_MS;
  return judgement(held, expected, `The next call came ${(waited / 1000).toFixed(2)} s after the 429.`, [
    limited.id,
    next.id,
  ]);
}

export function secretOnlyAtToken({ calls }: JudgeInput): Judgement {
  const expected = "The client secret appears in no call but token requests (headers, query, body).";
  const others = calls.filter((call) => !isToken(call));
  if (others.length === 0) return judgement(null, expected, "No call besides token requests was made.", []);
  const leaking = others.filter((call) => call.secret_in.length > 0);
  const inTokenQuery = calls.filter((call) => isToken(call) && call.secret_in.includes("query"));
  const bad = [...leaking, ...inTokenQuery];
  if (bad.length === 0)
    return judgement(true, expected, `Absent from all ${others.length} calls besides token requests.`, []);
  const first = bad[0]!;
  return judgement(
    false,
    expected,
    `The secret was sent in a ${first.operation ?? "call"} (${first.secret_in.join(", ")}).`,
    bad.map((call) => call.id),
  );
}

export function wellFormed({ calls }: JudgeInput): Judgement {
  const expected =
    "Every call well formed (Content-Type, Bearer, the card request body of API specification §2.3); none answered 400 or 415.";
  if (calls.length === 0) return judgement(null, expected, "No call was made.", []);
  const bad = calls.filter((call) => call.malformed.length > 0 || call.status === 400 || call.status === 415);
  if (bad.length === 0) return judgement(true, expected, `All ${calls.length} calls well formed.`, []);
  const first = bad[0]!;
  const why = first.malformed.length > 0 ? first.malformed.join("; ") : `answered ${first.status}`;
  return judgement(
    false,
    expected,
    `${bad.length} call(s) not well formed; first: ${first.operation ?? "call"}: ${why}.`,
    bad.map((call) => call.id),
  );
}

const JUDGES: Record<ClientCheckId, (input: JudgeInput) => Judgement> = {
  "CLI-TOKEN-REUSE": tokenReuse,
  "CLI-RENEW-401": renewAfter401,
  "CLI-REQUEST-ID-UNIQUE": requestIdUnique,
  "CLI-TIMEOUT-LOOKUP": timeoutLookup,
  "CLI-DECLINE-NO-RETRY": declineNoRetry,
  "CLI-RETRY-AFTER": retryAfter,
  "CLI-SECRET-ONLY-AT-TOKEN": secretOnlyAtToken,
  "CLI-WELL-FORMED": wellFormed,
};

export function judgeCalls(input: JudgeInput): ClientCheckResult[] {
  const calls = [...input.calls].sort((a, b) => a.started_ms - b.started_ms);
  return CLIENT_CHECKS.map((check: ClientCheckInfo) => ({
    ...check,
    ...JUDGES[check.id as ClientCheckId]({ ...input, calls }),
  }));
}
