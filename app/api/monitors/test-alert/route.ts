// POST /api/monitors/test-alert: queues a monitor.test alert to ALERT_WEBHOOK_URL (tester, admin); 202, 409 alerts_off.
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/monitors/test-alert"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const input = await context.body();
    const user = await context.user();
    const monitors = await (await context.services()).monitors();
    const delivery = await monitors.testAlert(input, user);
    await context.audit({
      event: "monitor_test_alert",
      outcome: "success",
      details: { monitor_id: input.monitor_id ?? null, delivery_id: delivery.id },
    });
    return Response.json(delivery, { status: 202 });
  }),
});
