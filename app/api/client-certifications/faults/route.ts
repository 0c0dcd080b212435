// GET /api/client-certifications/faults: the fault families a plan may name (docs/design.md §14), from the one
// registry the sandbox applies and the page shows.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { FAULT_FAMILIES, describeFamily } from "@/lib/shared/fault-families";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/client-certifications/faults"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async () => json({ families: FAULT_FAMILIES.map(describeFamily) })),
});
