// GET /api/certification/runs/{id}: one run's progress and per-case results (exchange bodies are in the bundle).
import { assertAllowed } from "@/lib/server/identity/enforce";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/certification/runs/[id]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = new URL(context.request.url).pathname.split("/")[4] ?? "";
    const service = await (await context.services()).certification();
    assertAllowed((await context.user()).roles, "certification_run", await service.environmentOf(id));
    const view = await context.audited(
      { event: "certification_run_viewed", outcome: "success", details: { run_id: id.slice(0, 128) } },
      () => service.view(id),
      () => ({}),
    );
    return json(view);
  }),
});
