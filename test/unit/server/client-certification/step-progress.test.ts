/**
 * A step of a client certification is done once the calls it asks for were seen, rather than armed for ever;
 * one ended without them says so.
 */
import { describe, expect, it } from "vitest";
import type { CallFacts } from "@/lib/server/client-certification/judge";
import { stepStates } from "@/lib/server/client-certification/step-progress";

let clock = 0;
function call(fields: Partial<CallFacts>): CallFacts {
  clock += 100;
  return {
    id: `call-${clock}`,
    step: "tokens",
    operation: "balance_inquiry",
    started_ms: clock,
    ended_ms: clock + 10,
    status: 200,
    behaviour: null,
    request_id: null,
    lookup_id: null,
    card: "600649******0001",
    body_sha256: null,
    token_issued_at_ms: 0,
    declined: false,
    secret_in: [],
    malformed: [],
    ...fields,
  };
}

const ARMED = "2026-11-28T10:00:00.000Z";
const ENDED = "2026-11-28T10:05:00.000Z";
const statusOf = (states: ReturnType<typeof stepStates>, id: string) =>
  states.find((step) => step.id === id)?.status;

describe("step progress", () => {
  it("is pending until started, armed while its calls are awaited, done once they are seen", () => {
    const steps = { tokens: { armed_at: ARMED } };
    expect(statusOf(stepStates({}, []), "tokens")).toBe("pending");
    const two = [call({ operation: "token" }), call({}), call({})];
    expect(statusOf(stepStates(steps, two), "tokens")).toBe("armed");
    expect(statusOf(stepStates(steps, [...two, call({})]), "tokens")).toBe("done");
    // Still done once the next step has ended it.
    expect(
      statusOf(stepStates({ tokens: { armed_at: ARMED, ended_at: ENDED } }, [...two, call({})]), "tokens"),
    ).toBe("done");
  });

  it("counts only the calls made while the step was armed, and what each step asks for", () => {
    const earlier = [call({}), call({}), call({})];
    expect(statusOf(stepStates({ rate_limited: { armed_at: ARMED } }, earlier), "rate_limited")).toBe(
      "armed",
    );
    const limited = [call({ step: "rate_limited", status: 429 }), call({ step: "rate_limited" })];
    expect(statusOf(stepStates({ rate_limited: { armed_at: ARMED } }, limited), "rate_limited")).toBe("done");

    const declinedStep = { declined: { armed_at: ARMED } };
    const active = call({ step: "declined", operation: "gift_balance_inquiry", status: 201 });
    expect(statusOf(stepStates(declinedStep, [active]), "declined")).toBe("armed");
    const inactive = call({ step: "declined", operation: "gift_balance_inquiry", card: "600649******0027" });
    expect(statusOf(stepStates(declinedStep, [inactive]), "declined")).toBe("done");
  });

  it("says a step ended without its calls", () => {
    expect(statusOf(stepStates({ timeout: { armed_at: ARMED, ended_at: ENDED } }, []), "timeout")).toBe(
      "ended",
    );
  });
});
