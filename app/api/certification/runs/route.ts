// GET /api/certification/runs: the runs kept, newest first, and which environments can be certified. POST: starts a run in the background, 202 {id}.
import {
  startRunInputSchema,
  type RunListResponse,
  type StartRunResponse,
} from "@/lib/shared/certification-api";
import { operatorOf } from "@/lib/server/certification/operator";
import { certificationService } from "@/lib/server/certification/service";
import { getConfig } from "@/lib/server/config";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("certification_run"), async () => {
  const service = await certificationService();
  const body: RunListResponse = { runs: await service.list(), environments: service.environments() };
  return json(body);
});

export const POST = apiRoute(allowSomewhere("certification_run"), async (context) => {
  const input = await context.body(startRunInputSchema);
  // The run acts on the environment it names, not the session's: the role must allow it there.
  const user = await context.user();
  assertAllowed(user.roles, "certification_run", input.environment);
  const service = await certificationService();
  // Every upstream call the run makes is audited as it happens, under the user who started it.
  const { id } = await service.start(
    await context.session(),
    input,
    operatorOf(getConfig(), user),
    (record, caseId, runId) =>
      void context
        .audit({
          event: "certification_upstream_call",
          outcome: record.response.status < 400 ? "success" : "failure",
          environment: record.environment,
          operation: record.operation,
          upstreamStatus: record.response.status >= 100 ? record.response.status : null,
          requestId: record.request_id ?? null,
          details: { run_id: runId, case_id: caseId, exchange_id: record.id },
        })
        .catch(() => {
          // audit() logged the row it could not write; the run goes on.
        }),
  );
  context.annotate({ run_id: id, environment: input.environment, cases: input.cases?.length ?? "all" });
  // DESIGN.md §7: certification runs are in the audit log (who started which run where, and with what consent).
  await context.audit({
    event: "certification_run_started",
    outcome: "success",
    environment: input.environment,
    operation: "certification_run",
    details: {
      run_id: id,
      cases: input.cases?.length ?? "all",
      allow_production_gift: input.allow_production_gift ?? false,
      wait_for_token_expiry: input.wait_for_token_expiry ?? false,
    },
  });
  const body: StartRunResponse = { id };
  return Response.json(body, { status: 202, headers: { Location: `/api/certification/runs/${id}` } });
});

const refuse = methodNotAllowed(["GET", "POST"]);
export { refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET", "POST"]);
