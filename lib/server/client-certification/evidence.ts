/**
 * The evidence bundle of a client certification (docs/design.md §8, §11): the run bundle's own code, given the
 * checks as its cases and the recorded calls as its exchanges, with `"kind": "client"` and the checks' own
 * verdicts (`not_observed` included) in the manifest. A check that was not observed is a case that is
 * `not_applicable`, with why.
 */
import "server-only";
import {
  consoleInfo,
  specificationInfo,
  type ConsoleInfo,
  type SpecificationInfo,
} from "@/lib/server/certification/build-info";
import { buildEvidenceBundle, type EvidenceBundle } from "@/lib/server/certification/evidence/bundle";
import type { EvidenceSigningKey } from "@/lib/server/certification/signing-key";
import { ApiError } from "@/lib/server/util/errors";
import type { CaseResult, RunState } from "@/lib/shared/certification-contract";
import type {
  ClientCallRecord,
  ClientCertificationView,
  ClientCheckResult,
} from "@/lib/shared/client-certification-contract";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { OperationName } from "@/lib/shared/operations";
import type { ClientCertificationService, Viewer } from "./service";

const NO_IDS = { transaction_ids: [], external_ids: [], x_request_ids: [], meta_request_ids: [] };

function caseOf(check: ClientCheckResult, view: ClientCertificationView): CaseResult {
  const passed = check.verdict === "pass" ? true : check.verdict === "fail" ? false : null;
  return {
    id: check.id,
    title: check.title,
    // "API specification §8, §4.3" → ["8", "4.3"]: a case's sections are the specification's, numbers alone.
    spec_sections: check.spec
      .replace(/^API specification\s*/, "")
      .replace(/§/g, "")
      .split(/,\s*/),
    verdict: check.verdict === "not_observed" ? "not_applicable" : check.verdict,
    ...(check.verdict === "pass"
      ? {}
      : { reason: `${check.verdict === "not_observed" ? "Not observed: " : ""}${check.observed}` }),
    checks: [
      {
        name: check.id,
        expected: check.expected,
        observed: check.observed,
        passed,
        exchange_ids: check.exchange_ids,
      },
    ],
    exchange_ids: check.exchange_ids,
    upstream_ids: {
      ...NO_IDS,
      x_request_ids: [
        ...new Set(
          view.exchanges
            .filter((call) => check.exchange_ids.includes(call.id) && call.request_id)
            .map((call) => call.request_id!),
        ),
      ],
    },
    token_fingerprints: [],
    started_at: view.started_at,
    finished_at: view.finished_at ?? view.started_at,
  };
}

function exchangeOf(call: ClientCallRecord): ExchangeRecord {
  return {
    id: call.id,
    operation: (call.operation ?? "token") as OperationName,
    environment: "embedded",
    started_at: call.started_at,
    duration_ms: call.duration_ms,
    ...(call.request_id ? { request_id: call.request_id } : {}),
    request: call.request,
    response: call.response,
    token_events: [],
  };
}

/** The certification as the run shape the bundle code reads. */
function asRunState(view: ClientCertificationView): RunState {
  return {
    id: view.id,
    status: "done",
    environment: { name: "embedded", auth_url: view.auth_url, base_url: view.base_url },
    client_id: view.client_id,
    operator: view.operator,
    allow_production_gift: false,
    case_ids: view.checks.map((check) => check.id),
    total: view.checks.length,
    done: view.checks.length,
    started_at: view.started_at,
    ...(view.finished_at ? { finished_at: view.finished_at } : {}),
    results: view.checks.map((check) => caseOf(check, view)),
    exchanges: view.exchanges.map(exchangeOf),
    tokens: [],
  };
}

export interface ClientEvidenceOptions {
  key: EvidenceSigningKey;
  console?: ConsoleInfo;
  specification?: SpecificationInfo;
}

/** The signed bundle of a finished (or expired) certification; 409 while it is still under way. */
export async function buildClientEvidence(
  service: ClientCertificationService,
  id: string,
  viewer: Viewer,
  options: ClientEvidenceOptions,
): Promise<EvidenceBundle> {
  const view = await service.get(id, viewer);
  if (view.status === "waiting" || view.status === "running") {
    throw new ApiError(
      "run_not_finished",
      `Client certification ${id} is ${view.status}: finish it to sign its evidence.`,
    );
  }
  const built = await buildEvidenceBundle({
    run: asRunState(view),
    key: options.key,
    console: options.console ?? consoleInfo(),
    specification: options.specification ?? specificationInfo(),
    manifestExtra:
      view.mode === "faults"
        ? {
            kind: "client-faults",
            certification: { id: view.id, status: view.status, calls: view.calls },
            client_timeout_ms: view.client_timeout_ms,
            checks: view.checks,
            plans: view.plans,
            reproducers: view.plans.filter((plan) => plan.reproducer_of !== null),
          }
        : {
            kind: "client",
            certification: { id: view.id, status: view.status, steps: view.steps, calls: view.calls },
            checks: view.checks,
          },
  });
  const stamp = view.started_at.replace(/[:.]/g, "-");
  const prefix = view.mode === "faults" ? "client-faults" : "client-certification";
  return { ...built, fileName: `${prefix}-${view.client_id}-${stamp}.zip` };
}
