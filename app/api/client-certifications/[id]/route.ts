// GET /api/client-certifications/{id}: status, steps, checks so far and a page of the recorded calls (masked,
// redacted): `?calls_after=<seq>&limit=<n>` (the page asks only for calls newer than the last it has).
import { certificationIdOf, viewerOf } from "@/lib/server/client-certification";
import { DEFAULT_CALL_PAGE } from "@/lib/server/client-certification/service";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/client-certifications/[id]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = certificationIdOf(context.request);
    const query = context.query();
    const service = await (await context.services()).clientCertification();
    const page = { after: query.calls_after, limit: query.limit ?? DEFAULT_CALL_PAGE };
    return json(await service.get(id, viewerOf(await context.user()), page));
  }),
});
