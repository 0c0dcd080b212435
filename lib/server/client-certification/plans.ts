/**
 * Fault plans of a certification in `faults` mode (docs/design.md §14): arming one (which ends the one before),
 * counting each call of the client in the plan armed and naming its fault, and ending a plan with its verdicts,
 * judged on that plan's calls alone.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { PlanResult } from "@/lib/shared/client-certification-contract";
import {
  faultCode,
  kindOfOperation,
  parsePlanCode,
  planCode,
  type PlannedFault,
} from "@/lib/shared/fault-families";
import type { OperationName } from "@/lib/shared/operations";
import type { PlannedCall } from "@/lib/sandbox";
import { ApiError } from "@/lib/server/util/errors";
import { judgePlan, referenceCode } from "./fault-judge";
import type { PlanRow, PlanStore, StoredPlanFaults } from "./plan-store";
import type { CertificationRow } from "./store";

/** How long ending a plan waits for calls still being kept (a held answer the client just left). */
const SETTLE_MS = 3000;

export interface PlanDeps {
  plans: PlanStore;
  now: () => number;
}

function assertFaultsMode(found: CertificationRow): void {
  if (found.mode !== "faults")
    throw new ApiError(
      "validation_failed",
      `Client certification ${found.id} runs the five integration steps; start one with mode "faults" for fault plans.`,
    );
}

export async function armPlan(
  deps: PlanDeps,
  found: CertificationRow,
  code: string,
  reproducerOf: string | null,
): Promise<{ plan_id: string }> {
  assertFaultsMode(found);
  const parsed = parsePlanCode(code);
  if (!parsed.ok) throw new ApiError("validation_failed", parsed.error);
  const existing = await deps.plans.list(found.id);
  const at = new Date(deps.now());
  const current = existing.find((plan) => plan.id === found.currentPlanId && plan.endedAt === null);
  if (current) await endPlan(deps, found, current, null);
  const id = randomUUID();
  const faults: StoredPlanFaults = { faults: parsed.faults, reproducer_of: reproducerOf };
  await deps.plans.insert({
    id,
    certificationId: found.id,
    number: existing.length + 1,
    code: planCode(parsed.faults),
    faults,
    counts: {},
    armedAt: at,
  });
  await deps.plans.setCurrent(found.id, id);
  return { plan_id: id };
}

/** Counts one call of the client in its armed plan: its ordinal among its kind and its fault. */
export async function planCall(
  deps: PlanDeps,
  found: CertificationRow,
  operation: OperationName,
): Promise<PlannedCall | null> {
  const kind = kindOfOperation(operation);
  if (found.mode !== "faults" || !found.currentPlanId || !kind) return null;
  const counted = await deps.plans.count(found.currentPlanId, kind);
  if (!counted) return null;
  const fault = counted.faults.faults.find((item) => item.kind === kind && item.ordinal === counted.seq);
  if (fault?.family === "status_401") await deps.plans.revokeNow(found.id, new Date(deps.now()));
  return {
    planId: found.currentPlanId,
    seq: counted.seq,
    family: fault?.family ?? null,
    clientTimeoutMs: found.clientTimeoutMs,
  };
}

/** Ends the plan (if still armed) and judges it; the calls counted are waited for a moment to be kept. */
export async function endPlan(
  deps: PlanDeps,
  found: CertificationRow,
  plan: PlanRow,
  exitCode: number | null,
): Promise<PlanResult> {
  if (plan.endedAt !== null) return planResult(plan, await deps.plans.calls(plan.id));
  if (found.currentPlanId === plan.id) await deps.plans.setCurrent(found.id, null);
  const calls = await settledCalls(deps, plan);
  const stored = plan.faults as StoredPlanFaults;
  const reference = await referenceRun(deps, plan, stored.faults);
  const result = judgePlan({
    calls: calls.map((call) => call.facts),
    clientTimeoutMs: found.clientTimeoutMs,
    exitCode,
    families: stored.faults.map((fault) => fault.family),
    reference,
  });
  const endedAt = new Date(deps.now());
  await deps.plans.end(plan.id, { endedAt, exitCode, result });
  return planResult({ ...plan, endedAt, exitCode, result }, calls);
}

/** The plan's calls once every call it counted is kept, or after SETTLE_MS. */
async function settledCalls(deps: PlanDeps, plan: PlanRow) {
  const deadline = deps.now() + SETTLE_MS;
  for (;;) {
    const fresh = (await deps.plans.get(plan.certificationId, plan.id)) ?? plan;
    const counted = Object.values(fresh.counts).reduce((sum, count) => sum + count, 0);
    const calls = await deps.plans.calls(plan.id);
    if (calls.length >= counted || deps.now() >= deadline) return calls;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function referenceRun(deps: PlanDeps, plan: PlanRow, faults: readonly PlannedFault[]) {
  const code = referenceCode(faults.map((fault) => ({ family: fault.family, code: faultCode(fault) })));
  if (code === plan.code) return null;
  const reference = await deps.plans.latestEnded(plan.certificationId, code, plan.number);
  if (!reference) return null;
  const calls = await deps.plans.calls(reference.id);
  return { code, calls: calls.map((call) => call.facts), exitCode: reference.exitCode };
}

export function planResult(
  plan: PlanRow,
  calls: {
    seq: number;
    facts: { fault?: string | null; kind_seq?: number | null; operation: string | null };
  }[],
): PlanResult {
  const stored = plan.faults as StoredPlanFaults;
  const checks = (plan.result as PlanResult["checks"] | null) ?? [];
  return {
    plan_id: plan.id,
    number: plan.number,
    code: plan.code,
    armed_at: plan.armedAt.toISOString(),
    ended_at: plan.endedAt?.toISOString() ?? null,
    exit_code: plan.exitCode,
    calls: calls.map((call) => call.seq),
    counts: plan.counts,
    faults: stored.faults.map((fault) => {
      const hit = calls.find(
        (call) =>
          kindOfOperation(call.facts.operation) === fault.kind && call.facts.kind_seq === fault.ordinal,
      );
      return { fault: faultCode(fault), call_seq: hit?.seq ?? null, exercised: hit !== undefined };
    }),
    checks,
    passed: plan.endedAt === null ? null : !checks.some((check) => check.verdict === "fail"),
    reproducer_of: stored.reproducer_of,
  };
}
