// GET /api/starter-clients: the starter clients of DESIGN.md §12, `{clients: [{language, title, run}]}`.
import { PUBLIC, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

// Public, like the OpenAPI documents: an integrator's CI fetches them without a session; they hold no secret.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(PUBLIC, async ({ root }) => json((await root.starterClients()).list()), { quiet: true }),
});
