// GET /api/health: liveness, and the empty route of `npm run bench`.
import { PUBLIC, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const GET = apiRoute(PUBLIC, async () => json({ status: "ok" }), { quiet: true });

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
