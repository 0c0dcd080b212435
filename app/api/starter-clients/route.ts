// GET /api/starter-clients: the starter clients of docs/design.md §12, `{clients: [{language, title, run}]}`.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/starter-clients"];

// Public, like the OpenAPI documents: an integrator's CI fetches them without a session; they hold no secret.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async ({ root }) => json((await root.starterClients()).list())),
});
