/**
 * Where each step of an integration certification (docs/design.md §11) stands: not started, armed and waiting for the
 * application, done once the calls its instructions ask for were seen, or ended without them. Whether those
 * calls were right is the checks' business (./judge.ts); a step only says that they happened. Pure.
 */
import {
  CLIENT_STEPS,
  INACTIVE_CARD,
  type ClientCertificationView,
  type ClientStepId,
} from "@/lib/shared/client-certification-contract";
import type { CallFacts } from "./judge";

type StepTimes = { armed_at?: string; ended_at?: string };

const isInquiry = (call: CallFacts) =>
  call.operation === "gift_balance_inquiry" || call.operation === "balance_inquiry";
const isGift = (call: CallFacts) => call.operation === "gift_balance_inquiry";
const isBalance = (call: CallFacts) => call.operation === "balance_inquiry";

/** The calls each step's instructions ask for (lib/shared/client-certification-contract, CLIENT_STEPS). */
const TRAFFIC_SEEN: Record<ClientStepId, (calls: readonly CallFacts[]) => boolean> = {
  tokens: (calls) => calls.filter(isInquiry).length >= 3,
  declined: (calls) => calls.some((call) => isGift(call) && call.card?.endsWith(INACTIVE_CARD.slice(-4))),
  revoked: (calls) => calls.some(isGift),
  timeout: (calls) => calls.some(isGift),
  rate_limited: (calls) => calls.filter(isBalance).length >= 2,
};

/** The steps as the page shows them, from when each was armed and ended and the calls made while it was. */
export function stepStates(
  steps: Partial<Record<ClientStepId, StepTimes>>,
  calls: readonly CallFacts[],
): ClientCertificationView["steps"] {
  return CLIENT_STEPS.map((step) => {
    const times = steps[step.id] ?? {};
    const seen = TRAFFIC_SEEN[step.id](calls.filter((call) => call.step === step.id));
    const status = !times.armed_at ? "pending" : seen ? "done" : times.ended_at ? "ended" : "armed";
    return { ...step, status, ...times };
  });
}
