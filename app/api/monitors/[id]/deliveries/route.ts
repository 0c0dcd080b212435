// GET /api/monitors/{id}/deliveries: the monitor's last 50 alert deliveries, each attempt and the state.
import type { DeliveryListResponse } from "@/lib/shared/monitors-api";
import { apiRoute, defineRoute, json } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/monitors/[id]/deliveries"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = new URL(context.request.url).pathname.split("/")[3] ?? "";
    const body: DeliveryListResponse = {
      deliveries: await (await (await context.services()).monitors()).deliveries(id),
    };
    return json(body);
  }),
});
