/**
 * The judge of client certification checks (docs/design.md §11) on hand-made traffic: behaviour, not
 * implementation. Resending the timed-out request with the same X-Request-Id is right; a new inquiry for the
 * card under a new id is not; traffic that did not happen is not observed.
 */
import { describe, expect, test } from "vitest";
import { judgeCalls, type CallFacts } from "@/lib/server/client-certification/judge";

let clock = 0;
function call(fields: Partial<CallFacts>): CallFacts {
  clock += 100;
  return {
    id: `call-${clock}`,
    step: null,
    operation: "gift_balance_inquiry",
    started_ms: clock,
    ended_ms: clock + 10,
    status: 201,
    behaviour: null,
    request_id: null,
    lookup_id: null,
    card: "600649******0001",
    body_sha256: "body-a",
    token_issued_at_ms: 0,
    declined: false,
    secret_in: [],
    malformed: [],
    ...fields,
  };
}

const verdict = (calls: CallFacts[], id: string) =>
  judgeCalls({ calls, armedAt: {} }).find((check) => check.id === id)!;

describe("CLI-TIMEOUT-LOOKUP", () => {
  test("resending the same request with the same X-Request-Id after giving up passes", () => {
    const held = call({ request_id: "r-1", behaviour: "client_closed", status: 499 });
    const resent = call({ request_id: "r-1", status: 409 });
    expect(verdict([held, resent], "CLI-TIMEOUT-LOOKUP")).toMatchObject({ verdict: "pass" });
  });

  test("a new inquiry for the same card under a new id before any lookup fails, and says so", () => {
    const held = call({ request_id: "r-1", behaviour: "client_closed", status: 499 });
    const fresh = call({ request_id: "r-2" });
    const lookup = call({ operation: "transaction_lookup", lookup_id: "r-1", card: null, body_sha256: null });
    expect(verdict([held, fresh, lookup], "CLI-TIMEOUT-LOOKUP")).toMatchObject({
      verdict: "fail",
      observed: expect.stringMatching(/new Gift Balance Inquiry .* r-2 before looking up r-1/),
    });
    const lookedUp = call({
      operation: "transaction_lookup",
      lookup_id: "r-1",
      card: null,
      body_sha256: null,
    });
    const afterwards = call({ request_id: "r-3" });
    expect(verdict([held, lookedUp, afterwards], "CLI-TIMEOUT-LOOKUP").verdict).toBe("pass");
  });

  test("nothing after the unanswered call yet is not observed, not a pass", () => {
    const held = call({ request_id: "r-1", behaviour: "client_closed", status: 499 });
    expect(verdict([held], "CLI-TIMEOUT-LOOKUP").verdict).toBe("not_observed");
  });
});

describe("CLI-REQUEST-ID-UNIQUE and CLI-RETRY-AFTER", () => {
  test("one id with two different bodies fails; the same body twice is a retry", () => {
    const first = call({ request_id: "r-1" });
    expect(verdict([first, call({ request_id: "r-1" })], "CLI-REQUEST-ID-UNIQUE").verdict).toBe("pass");
    expect(
      verdict([first, call({ request_id: "r-1", body_sha256: "body-b" })], "CLI-REQUEST-ID-UNIQUE").verdict,
    ).toBe("fail");
  });

  test("a call within Retry-After of the 429 fails; one after it passes", () => {
    const limited = call({ operation: "balance_inquiry", behaviour: "rate_limited", status: 429 });
    const soon = {
      ...call({ operation: "balance_inquiry", status: 200 }),
      started_ms: limited.ended_ms + 500,
    };
    const later = { ...soon, started_ms: limited.ended_ms + 2000 };
    expect(verdict([limited, soon], "CLI-RETRY-AFTER").verdict).toBe("fail");
    expect(verdict([limited, later], "CLI-RETRY-AFTER").verdict).toBe("pass");
  });
});
