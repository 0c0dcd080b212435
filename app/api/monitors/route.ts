// GET /api/monitors: every monitor with its state, next run and last run, and where alerts go. POST: creates one (tester, admin); it runs at once.
import { type MonitorListResponse } from "@/lib/shared/monitors-api";
import { apiRoute, defineRoute, json } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/monitors"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const user = await context.user();
    const body: MonitorListResponse = await (await (await context.services()).monitors()).list(user);
    return json(body);
  }),
  POST: apiRoute(route.POST, async (context) => {
    const input = await context.body();
    const user = await context.user();
    const monitors = await (await context.services()).monitors();
    const monitor = await monitors.create(input, user);
    context.annotate({ monitor_id: monitor.id, environment: monitor.environment });
    await context.audit({
      event: "monitor_created",
      outcome: "success",
      environment: monitor.environment,
      details: {
        monitor_id: monitor.id,
        every_minutes: monitor.every_minutes,
        alert_after_failures: monitor.alert_after_failures,
        cases: monitor.cases?.length ?? "all",
        allow_production_gift: monitor.allow_production_gift,
      },
    });
    return json(monitor, 201, { Location: `/api/monitors/${monitor.id}` });
  }),
});
