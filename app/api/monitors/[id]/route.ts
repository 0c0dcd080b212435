// GET /api/monitors/{id}: {monitor, runs} (the last 50). PATCH: pause, resume or change; DELETE: removes it (both its owner's or an admin's).
import { apiRoute, defineRoute, json } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/monitors/[id]"];

const monitorId = (request: Request) => new URL(request.url).pathname.split("/")[3] ?? "";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const user = await context.user();
    return json(await (await (await context.services()).monitors()).detail(monitorId(context.request), user));
  }),
  PATCH: apiRoute(route.PATCH, async (context) => {
    const input = await context.body();
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
  DELETE: apiRoute(route.DELETE, async (context) => {
    const user = await context.user();
    const monitors = await (await context.services()).monitors();
    const monitor = await monitors.remove(monitorId(context.request), user);
    await context.audit({
      event: "monitor_deleted",
      outcome: "success",
      environment: monitor.environment,
      details: { monitor_id: monitor.id },
    });
    return json({ deleted: monitor.id });
  }),
});
