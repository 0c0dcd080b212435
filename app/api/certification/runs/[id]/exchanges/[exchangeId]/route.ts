// GET /api/certification/runs/{id}/exchanges/{exchangeId}: one exchange of a run, masked and redacted as
// stored (the same record the evidence bundle holds), so a case's request and response show on its page.
import { assertAllowed } from "@/lib/server/identity/enforce";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/certification/runs/[id]/exchanges/[exchangeId]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const segments = new URL(context.request.url).pathname.split("/");
    const service = await (await context.services()).certification();
    const id = segments[4] ?? "";
    assertAllowed((await context.user()).roles, "certification_run", await service.environmentOf(id));
    return json(await service.exchange(id, decodeURIComponent(segments[6] ?? "")));
  }),
});
