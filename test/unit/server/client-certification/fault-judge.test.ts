/**
 * The checks of fault certification (docs/design.md §14) on hand-made traffic of one plan: each with a run
 * that keeps the duty and one that breaks it, and traffic that never exercised it is not observed.
 */
import { describe, expect, test } from "vitest";
import { judgePlan, type PlanJudgeInput } from "@/lib/server/client-certification/fault-judge";
import type { CallFacts } from "@/lib/server/client-certification/judge";
import { retryAfterMs } from "@/lib/server/client-certification/facts";

let clock = 0;
/** A call starting 100 ms after the one before (or at `at`), lasting 10 ms unless told. */
function call(fields: Partial<CallFacts> & { at?: number; lasting?: number }): CallFacts {
  const { at, lasting = 10, ...rest } = fields;
  clock = at ?? clock + 100;
  return {
    id: `call-${clock}-${Math.random()}`,
    step: null,
    operation: "gift_balance_inquiry",
    started_ms: clock,
    ended_ms: clock + lasting,
    status: 201,
    behaviour: null,
    request_id: "r-1",
    lookup_id: null,
    card: "600649******0001",
    body_sha256: "body-a",
    token_issued_at_ms: 1,
    declined: false,
    secret_in: [],
    malformed: [],
    plan_id: "p",
    kind_seq: 1,
    fault: null,
    retry_after_ms: null,
    ...rest,
  };
}

const token = (fields: Partial<CallFacts> & { at?: number; lasting?: number } = {}) =>
  call({ operation: "token", status: 200, request_id: null, card: null, body_sha256: null, ...fields });
const lookup = (id: string, status: number, at?: number) =>
  call({ operation: "transaction_lookup", lookup_id: id, request_id: null, status, card: null, at });

function verdictOf(id: string, calls: CallFacts[], input: Partial<PlanJudgeInput> = {}) {
  const families = calls.flatMap((item) => (item.fault ? [item.fault] : []));
  return judgePlan({ calls, clientTimeoutMs: 1000, exitCode: 0, families, reference: null, ...input }).find(
    (check) => check.id === id,
  )!;
}

describe("CLI-NO-DUPLICATE-WRITE", () => {
  test("a new Request Id for the card after a reset after commit fails, naming both ids", () => {
    const reset = call({ status: 0, behaviour: "reset", fault: "reset_after_commit" });
    const again = call({ request_id: "r-2", kind_seq: 2 });
    expect(verdictOf("CLI-NO-DUPLICATE-WRITE", [reset, again])).toMatchObject({
      verdict: "fail",
      observed: expect.stringMatching(/connection reset of X-Request-Id r-1.*r-2/),
      basis: expect.stringContaining("RFC 9110"),
    });
  });

  test("looking the Request Id up first, then writing anew, passes; so does resending with the same id", () => {
    const failed = call({ status: 500, fault: "status_500_after_commit" });
    expect(
      verdictOf("CLI-NO-DUPLICATE-WRITE", [failed, lookup("r-1", 200), call({ request_id: "r-2" })]),
    ).toMatchObject({ verdict: "pass" });
    const cut = call({ fault: "body_cut" });
    expect(verdictOf("CLI-NO-DUPLICATE-WRITE", [cut, call({ status: 409 })])).toMatchObject({
      verdict: "pass",
    });
  });

  test("a lookup that itself failed tells nothing: a new id after it still fails", () => {
    const failed = call({ status: 503 });
    const calls = [failed, lookup("r-1", 500), call({ request_id: "r-2" })];
    expect(verdictOf("CLI-NO-DUPLICATE-WRITE", calls)).toMatchObject({ verdict: "fail" });
  });

  test("without an unknown outcome it is not observed", () => {
    expect(verdictOf("CLI-NO-DUPLICATE-WRITE", [call({})])).toMatchObject({ verdict: "not_observed" });
  });
});

describe("CLI-TIMEOUT-BOUND", () => {
  test("giving up within the timeout + 2 s passes; waiting for the late answer fails", () => {
    const abandoned = call({ behaviour: "client_closed", fault: "late_headers", status: 499, lasting: 1100 });
    expect(verdictOf("CLI-TIMEOUT-BOUND", [abandoned])).toMatchObject({ verdict: "pass" });
    const waited = call({ behaviour: "fault", fault: "late_headers", lasting: 6000 });
    expect(verdictOf("CLI-TIMEOUT-BOUND", [waited])).toMatchObject({
      verdict: "fail",
      observed: expect.stringMatching(/waited 6\.00 s for the whole held answer/),
    });
  });

  test("a dripping body read to its end, or abandoned too late, fails", () => {
    const late = call({ behaviour: "client_closed", fault: "drip_body", lasting: 3500 });
    expect(verdictOf("CLI-TIMEOUT-BOUND", [late])).toMatchObject({ verdict: "fail" });
  });
});

describe("CLI-TOKEN-BACKOFF", () => {
  test("a retry 0.6 s after a failed token request passes; one 50 ms after fails", () => {
    const failed = token({ at: 10_000, status: 503, fault: "token_503" });
    expect(verdictOf("CLI-TOKEN-BACKOFF", [failed, token({ at: 10_620 })])).toMatchObject({
      verdict: "pass",
    });
    const tight = token({ at: 10_060 });
    expect(verdictOf("CLI-TOKEN-BACKOFF", [failed, tight])).toMatchObject({
      verdict: "fail",
      observed: expect.stringMatching(/0\.05 s after the failed one/),
    });
  });

  test("more than 3 requests for one failure fail, however spaced", () => {
    const failed = token({ at: 20_000, status: 500, fault: "token_500" });
    const retries = [1, 2, 3, 4].map((index) => token({ at: 20_000 + index * 1000, status: 500 }));
    expect(verdictOf("CLI-TOKEN-BACKOFF", [failed, ...retries])).toMatchObject({
      verdict: "fail",
      observed: "4 token requests followed one failure.",
    });
  });
});

describe("CLI-TOLERANT-READER", () => {
  const reference = { code: "", calls: [token({}), call({ operation: "balance_inquiry" })], exitCode: 0 };

  test("the same calls and exit status as the reference pass", () => {
    const calls = [token({}), call({ operation: "balance_inquiry", fault: "extra_purse", status: 200 })];
    expect(verdictOf("CLI-TOLERANT-READER", calls, { reference })).toMatchObject({
      verdict: "pass",
      observed: "The same calls and exit status as the baseline.",
    });
  });

  test("another exit status, or other calls, fail", () => {
    const calls = [token({}), call({ operation: "balance_inquiry", fault: "unknown_fields", status: 200 })];
    expect(verdictOf("CLI-TOLERANT-READER", calls, { reference, exitCode: 1 })).toMatchObject({
      verdict: "fail",
      observed: "Exit status 1, against 0 for the baseline.",
    });
    const more = [...calls, call({ operation: "balance_inquiry" })];
    expect(verdictOf("CLI-TOLERANT-READER", more, { reference })).toMatchObject({ verdict: "fail" });
  });

  test("with no reference run it is not observed", () => {
    const calls = [call({ fault: "unknown_response_code" })];
    expect(verdictOf("CLI-TOLERANT-READER", calls)).toMatchObject({ verdict: "not_observed" });
  });
});

describe("CLI-NO-RETRY-403", () => {
  test("sending the refused call again with the same token fails; a new token passes", () => {
    const refused = call({ status: 403, fault: "status_403", token_issued_at_ms: 5 });
    expect(verdictOf("CLI-NO-RETRY-403", [refused, call({ token_issued_at_ms: 5 })])).toMatchObject({
      verdict: "fail",
    });
    expect(
      verdictOf("CLI-NO-RETRY-403", [refused, token({}), call({ token_issued_at_ms: 99 })]),
    ).toMatchObject({ verdict: "pass" });
  });

  test("the next call of the same kind for another card, or another lookup, is no retry", () => {
    const refused = call({ status: 403, fault: "status_403", token_issued_at_ms: 5 });
    const otherCard = call({ request_id: "r-2", body_sha256: "body-b", token_issued_at_ms: 5 });
    expect(verdictOf("CLI-NO-RETRY-403", [refused, otherCard])).toMatchObject({ verdict: "pass" });
    const refusedLookup = call({ ...lookup("r-1", 403), fault: "status_403", token_issued_at_ms: 5 });
    const otherLookup = call({ ...lookup("r-9", 200), token_issued_at_ms: 5 });
    expect(verdictOf("CLI-NO-RETRY-403", [refusedLookup, otherLookup])).toMatchObject({ verdict: "pass" });
  });
});

describe("CLI-RETRY-AFTER", () => {
  test("seconds: a call 0.5 s after Retry-After: 1 fails; 1.1 s after passes", () => {
    const limited = call({ at: 30_000, status: 429, retry_after_ms: 1000, fault: "status_429_seconds" });
    expect(verdictOf("CLI-RETRY-AFTER", [limited, call({ at: 30_510 })])).toMatchObject({
      verdict: "fail",
      observed: "The next call came 0.50 s after the 429 (Retry-After 1.00 s).",
    });
    expect(verdictOf("CLI-RETRY-AFTER", [limited, call({ at: 31_110 })])).toMatchObject({ verdict: "pass" });
  });

  test("an HTTP-date is read relative to the answer", () => {
    const answered = Date.parse("2026-11-28T10:00:00Z");
    expect(retryAfterMs("Sat, 28 Nov 2026 10:00:03 GMT", answered)).toBe(3000);
    expect(retryAfterMs("2", answered)).toBe(2000);
    const limited = call({ at: 40_000, status: 429, retry_after_ms: 2500, fault: "status_429_date" });
    expect(verdictOf("CLI-RETRY-AFTER", [limited, call({ at: 41_000 })])).toMatchObject({ verdict: "fail" });
  });

  test("above the client's patience, giving up passes; a call inside the window fails", () => {
    const limited = call({ at: 50_000, status: 429, retry_after_ms: 180_000, fault: "status_429_long" });
    expect(verdictOf("CLI-RETRY-AFTER", [limited])).toMatchObject({ verdict: "pass" });
    expect(verdictOf("CLI-RETRY-AFTER", [limited, call({ at: 52_000 })])).toMatchObject({ verdict: "fail" });
  });

  test("without Retry-After, an immediate retry fails", () => {
    const limited = call({ at: 60_000, status: 429, fault: "status_429_bare" });
    expect(verdictOf("CLI-RETRY-AFTER", [limited, call({ at: 60_020 })])).toMatchObject({ verdict: "fail" });
  });
});

describe("CLI-RENEW-401 on an ended plan", () => {
  const revoked = () =>
    call({ status: 401, behaviour: "revoked", fault: "status_401", token_issued_at_ms: 1 });

  test("one new token, then the same call with the same Request Id, passes", () => {
    const refused = revoked();
    const renewal = token({ token_issued_at_ms: null });
    const retry = call({ token_issued_at_ms: renewal.started_ms + 1 });
    expect(verdictOf("CLI-RENEW-401", [refused, renewal, retry])).toMatchObject({ verdict: "pass" });
  });

  test("a run that ends after the 401 without renewing fails: the plan is over, the retry will not come", () => {
    expect(verdictOf("CLI-RENEW-401", [revoked()], { exitCode: 1 })).toMatchObject({
      verdict: "fail",
      observed: expect.stringMatching(/ended after the gift_balance_inquiry's 401 without a new token/),
    });
    expect(verdictOf("CLI-RENEW-401", [revoked(), token({ token_issued_at_ms: null })])).toMatchObject({
      verdict: "fail",
      observed: expect.stringMatching(/never sent again/),
    });
  });

  test("failed token requests are no renewal: the working one after them, then the retry, passes", () => {
    const refused = revoked();
    const failed = token({ status: 503, fault: "token_503", token_issued_at_ms: null });
    const renewal = token({ at: clock + 700, token_issued_at_ms: null });
    const retry = call({ token_issued_at_ms: renewal.started_ms + 1 });
    expect(verdictOf("CLI-RENEW-401", [refused, failed, renewal, retry])).toMatchObject({ verdict: "pass" });
  });

  test("when the token endpoint kept failing after the 401, giving up is not judged here", () => {
    const refused = revoked();
    const failed = token({ status: 503, fault: "token_503", token_issued_at_ms: null });
    expect(verdictOf("CLI-RENEW-401", [refused, failed], { exitCode: 1 })).toMatchObject({
      verdict: "not_observed",
    });
  });
});
