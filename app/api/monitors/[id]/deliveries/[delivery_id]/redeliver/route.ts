// POST /api/monitors/{id}/deliveries/{delivery_id}/redeliver: sends the alert again with the same webhook-id (its owner or an admin); 202.
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/monitors/[id]/deliveries/[delivery_id]/redeliver"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const [, , , id = "", , deliveryId = ""] = new URL(context.request.url).pathname.split("/");
    const user = await context.user();
    const monitors = await (await context.services()).monitors();
    const delivery = await monitors.redeliver(id, decodeURIComponent(deliveryId), user);
    await context.audit({
      event: "monitor_alert_redelivered",
      outcome: "success",
      details: { monitor_id: id, delivery_id: delivery.id, type: delivery.type },
    });
    return Response.json(delivery, { status: 202 });
  }),
});
