// GET /api/test-cards?environment=NAME: the cards a user may try there, masked (docs/design.md §5).
import { listTestCards } from "@/lib/server/test-cards/catalogue";
import { testCardEnvironment } from "@/lib/server/test-cards/params";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/test-cards"];

// raw_exchange: the roles that see full requests (engineer, tester, admin); support never sees a full number.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const environment = await testCardEnvironment(context);
    return json({ cards: listTestCards(context.config, environment) });
  }),
});
