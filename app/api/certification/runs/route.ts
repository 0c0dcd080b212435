// GET /api/certification/runs: the runs kept, newest first, and which environments can be certified. POST: starts a run in the background, 202 {id}.
import { type RunListResponse, type StartRunResponse } from "@/lib/shared/certification-api";
import { operatorOf } from "@/lib/server/certification/operator";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { can } from "@/lib/server/identity/roles";
import { spendCertificationRun } from "@/lib/server/http/rate-limit";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/certification/runs"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const service = await (await context.services()).certification();
    // Runs in an environment where the caller may not run certification are left out (an engineer: production).
    const { roles } = await context.user();
    const runs = await service.list((environment) => can(roles, "certification_run", environment));
    const body: RunListResponse = { runs, environments: service.environments() };
    return json(body);
  }),
  POST: apiRoute(route.POST, async (context) => {
    const input = await context.body();
    // The run acts on the environment it names, not the session's: the role must allow it there.
    const user = await context.user();
    assertAllowed(user.roles, "certification_run", input.environment);
    const services = await context.services();
    const service = await services.certification();
    // Every upstream call the run makes is audited as it happens, under the user who started it.
    const { id } = await service.start(
      await context.session(),
      input,
      operatorOf(context.config, user),
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
      // Counted once the run is known to be startable: CERTIFICATION_RUNS_PER_HOUR per user and environment.
      () =>
        spendCertificationRun(
          services.rateLimiter,
          user.id,
          input.environment,
          context.config.certificationRunsPerHour,
        ),
    );
    context.annotate({ run_id: id, environment: input.environment, cases: input.cases?.length ?? "all" });
    // docs/design.md §7: certification runs are in the audit log (who started which run where, and with what consent).
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
    return json(body, 202, { Location: `/api/certification/runs/${id}` });
  }),
});
