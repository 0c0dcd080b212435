// GET /api/monitors: every monitor with its state, next run and last run. POST: creates one (tester, admin); it runs at once.
import { createMonitorSchema, type MonitorListResponse } from "@/lib/shared/monitors-api";
import { allowGlobal, apiRoute, defineRoute, json } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowGlobal("monitor_read"), async (context) => {
    const monitors = await (await context.services()).monitors();
    const body: MonitorListResponse = { monitors: await monitors.list() };
    return json(body);
  }),
  POST: apiRoute(allowGlobal("monitor_write"), async (context) => {
    const input = await context.body(createMonitorSchema);
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
        cases: monitor.cases?.length ?? "all",
        allow_production_gift: monitor.allow_production_gift,
      },
    });
    return Response.json(monitor, { status: 201, headers: { Location: `/api/monitors/${monitor.id}` } });
  }),
});
