// POST /api/monitors/{id}/run: runs the monitor now (its schedule does not move); 202 {run_id}, 409 run_in_progress.
import type { MonitorRunResponse } from "@/lib/shared/monitors-api";
import { spendCertificationRun } from "@/lib/server/http/rate-limit";
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/openapi/catalogue";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/monitors/[id]/run"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const id = new URL(context.request.url).pathname.split("/")[3] ?? "";
    const services = await context.services();
    const monitors = await services.monitors();
    // "Run now" is a certification run: it spends the caller's CERTIFICATION_RUNS_PER_HOUR in its environment.
    const { monitor } = await monitors.detail(id);
    const { id: userId } = await context.user();
    const limit = context.config.certificationRunsPerHour;
    await spendCertificationRun(services.rateLimiter, userId, monitor.environment, limit);
    const body: MonitorRunResponse = await monitors.runNow(id);
    await context.audit({
      event: "certification_run_started",
      outcome: "success",
      operation: "certification_run",
      details: { monitor_id: id, run_id: body.run_id },
    });
    return Response.json(body, {
      status: 202,
      headers: { Location: `/api/certification/runs/${body.run_id}` },
    });
  }),
});
