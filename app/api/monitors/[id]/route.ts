// GET /api/monitors/{id}: {monitor, runs} (the last 50). PATCH: pause, resume or change (tester, admin). DELETE: removes it.
import { updateMonitorSchema } from "@/lib/shared/monitors-api";
import { allowGlobal, apiRoute, defineRoute, json } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

const monitorId = (request: Request) => new URL(request.url).pathname.split("/")[3] ?? "";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowGlobal("monitor_read"), async (context) => {
    const monitors = await (await context.services()).monitors();
    return json(await monitors.detail(monitorId(context.request)));
  }),
  PATCH: apiRoute(allowGlobal("monitor_write"), async (context) => {
    const input = await context.body(updateMonitorSchema);
    const user = await context.user();
    const monitors = await (await context.services()).monitors();
    const monitor = await monitors.update(monitorId(context.request), input, user);
    await context.audit({
      event: "monitor_changed",
      outcome: "success",
      environment: monitor.environment,
      details: { monitor_id: monitor.id, changed: Object.keys(input).sort().join(",") },
    });
    return json(monitor);
  }),
  DELETE: apiRoute(allowGlobal("monitor_write"), async (context) => {
    const monitors = await (await context.services()).monitors();
    const monitor = await monitors.remove(monitorId(context.request));
    await context.audit({
      event: "monitor_deleted",
      outcome: "success",
      environment: monitor.environment,
      details: { monitor_id: monitor.id },
    });
    return json({ deleted: monitor.id });
  }),
});
