// GET /api/health: liveness, and the empty route of `npm run bench`.
import { PUBLIC, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(PUBLIC, async () => json({ status: "ok" }), { quiet: true }),
});
