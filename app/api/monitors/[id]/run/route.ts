// POST /api/monitors/{id}/run: runs the monitor now (its owner or an admin; its schedule does not move); 202 {run_id}, 409 run_in_progress.
import type { MonitorRunResponse } from "@/lib/shared/monitors-api";
import { spendCertificationRun } from "@/lib/server/http/rate-limit";
import { apiRoute, defineRoute, json } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/monitors/[id]/run"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const id = new URL(context.request.url).pathname.split("/")[3] ?? "";
    const services = await context.services();
    const monitors = await services.monitors();
    const user = await context.user();
    // "Run now" is a certification run: once the monitor is the caller's to run, it spends their
    // CERTIFICATION_RUNS_PER_HOUR in its environment (anyone else gets runNow's 404).
    const { monitor } = await monitors.detail(id, user);
    if (monitor.can_manage) {
      const limit = context.config.certificationRunsPerHour;
      await spendCertificationRun(services.rateLimiter, user.id, monitor.environment, limit);
    }
    const body: MonitorRunResponse = await monitors.runNow(id, user);
    await context.audit({
      event: "certification_run_started",
      outcome: "success",
      operation: "certification_run",
      details: { monitor_id: id, run_id: body.run_id },
    });
    return json(body, 202, { Location: `/api/certification/runs/${body.run_id}` });
  }),
});
