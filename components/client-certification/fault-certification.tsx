"use client";

import { Badge } from "@/components/ui/badge";
import type {
  ClientCallRecord,
  ClientCertificationView,
  PlanResult,
} from "@/lib/shared/client-certification-contract";
import { CallLog } from "./call-log";
import { ClientChecks } from "./client-checks";

function verdictBadge(plan: PlanResult) {
  if (plan.passed === null) return <Badge tone="neutral">armed</Badge>;
  return plan.passed ? <Badge tone="success">pass</Badge> : <Badge tone="danger">fail</Badge>;
}

function failedChecks(plan: PlanResult): string[] {
  return plan.checks.filter((check) => check.verdict === "fail").map((check) => check.id);
}

/** One plan: its faults (each marked exercised or not reached), its verdict, and its calls on opening. */
function PlanRow({ plan, calls, open }: { plan: PlanResult; calls: ClientCallRecord[]; open?: boolean }) {
  const failed = failedChecks(plan);
  // The call a fault hit is marked in the log itself (its border and "fault:" label), not opened or scrolled to.
  const own = calls.filter((call) => call.plan_id === plan.plan_id);
  return (
    <li
      data-plan={plan.code || "baseline"}
      data-passed={plan.passed === null ? undefined : String(plan.passed)}
      className="min-w-0 rounded-lg border border-raised"
    >
      <details open={open}>
        <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
          <span className="font-mono text-xs text-muted tabular-nums">#{plan.number}</span>
          {verdictBadge(plan)}
          {plan.faults.length === 0 ? (
            <span className="font-medium">Baseline (no fault)</span>
          ) : (
            plan.faults.map((fault) => (
              <span
                key={fault.fault}
                className="font-mono text-xs break-all"
                title={fault.exercised ? `hit call #${fault.call_seq}` : "the call it names never came"}
              >
                {fault.fault}
                {fault.exercised ? ` → #${fault.call_seq}` : " (not reached)"}
              </span>
            ))
          )}
          <span className="text-xs text-muted">
            {plan.calls.length} call{plan.calls.length === 1 ? "" : "s"}
            {plan.exit_code === null ? "" : ` · exit ${plan.exit_code}`}
          </span>
          {failed.length > 0 ? <span className="text-xs text-danger">{failed.join(", ")}</span> : null}
        </summary>
        <div className="grid min-w-0 gap-3 px-3 pb-3">
          {plan.checks
            .filter((check) => check.verdict === "fail")
            .map((check) => (
              <p key={check.id} className="text-sm break-words text-body">
                <span className="font-mono text-xs">{check.id}</span> ({check.basis ?? check.spec}):{" "}
                {check.observed}
              </p>
            ))}
          <CallLog calls={own} />
        </div>
      </details>
    </li>
  );
}

/**
 * A certification in `faults` mode (docs/design.md §14): the checks over every plan, the shrunk reproducers
 * first, the baseline, then each plan as a row whose calls show the injected fault on the call it hit.
 */
export function FaultCertification({ view }: { view: ClientCertificationView }) {
  const baseline = view.plans.find((plan) => plan.code === "");
  const reproducers = view.plans.filter((plan) => plan.reproducer_of !== null);
  const others = view.plans.filter((plan) => plan !== baseline && plan.reproducer_of === null);
  const failing = others.filter((plan) => plan.passed === false).length;
  return (
    <div className="grid min-w-0 gap-6">
      <section aria-labelledby="fault-summary" className="grid gap-2">
        <h2 id="fault-summary" className="text-base font-semibold">
          {view.plans.length} plan{view.plans.length === 1 ? "" : "s"} · {failing} failed ·{" "}
          {reproducers.length} reproducer{reproducers.length === 1 ? "" : "s"}
        </h2>
        <p className="text-sm text-body">
          The application&apos;s command ran plain, then under each fault plan below; the client&apos;s
          timeout was {view.client_timeout_ms} ms. Replay a plan with{" "}
          <code className="font-mono text-xs">npm run certify-client -- --command … --plan CODE</code>.
        </p>
      </section>
      {reproducers.length > 0 ? (
        <section aria-labelledby="reproducers" className="grid gap-2">
          <h2 id="reproducers" className="text-base font-semibold">
            Smallest failing plans
          </h2>
          <ol className="grid min-w-0 gap-2" aria-label="Smallest failing plans">
            {reproducers.map((plan) => (
              <PlanRow key={plan.plan_id} plan={plan} calls={view.exchanges} open />
            ))}
          </ol>
        </section>
      ) : null}
      <section aria-labelledby="fault-checks" className="grid gap-2">
        <h2 id="fault-checks" className="text-base font-semibold">
          Checks over every plan
        </h2>
        <ClientChecks checks={view.checks} calls={view.exchanges} />
      </section>
      <section aria-labelledby="plans" className="grid gap-2">
        <h2 id="plans" className="text-base font-semibold">
          Plans
        </h2>
        <ol className="grid min-w-0 gap-2" aria-label="Plans">
          {baseline ? <PlanRow plan={baseline} calls={view.exchanges} /> : null}
          {others.map((plan) => (
            <PlanRow key={plan.plan_id} plan={plan} calls={view.exchanges} />
          ))}
        </ol>
        {view.plans.length === 0 ? (
          <p className="text-sm text-muted">No plan yet: run npm run certify-client against this console.</p>
        ) : null}
      </section>
    </div>
  );
}
