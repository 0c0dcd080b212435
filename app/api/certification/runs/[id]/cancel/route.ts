// POST /api/certification/runs/{id}/cancel: stops a queued or running run after the case under way; the run
// ends `cancelled` and its bundle signs what ran. Audited. An ended run is answered as it is.
import { assertAllowed } from "@/lib/server/identity/enforce";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/certification/runs/[id]/cancel"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const id = new URL(context.request.url).pathname.split("/")[4] ?? "";
    const service = await (await context.services()).certification();
    const before = await service.view(id);
    // Who may run certification in the run's environment may stop it there (production: tester, admin).
    assertAllowed((await context.user()).roles, "certification_run", before.environment.name);
    const after = await service.cancel(id);
    context.annotate({ run_id: id, status: after.status });
    if (before.status === "queued" || before.status === "running") {
      await context.audit({
        event: "certification_run_cancelled",
        outcome: "success",
        environment: before.environment.name,
        operation: "certification_run",
        details: { run_id: id, cases_done: after.done, total: after.total },
      });
    }
    return json(after);
  }),
});
