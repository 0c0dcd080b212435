// GET /api/test-cards?environment=NAME: the cards a user may try there, masked (DESIGN.md §5).
import { listTestCards } from "@/lib/server/test-cards/catalogue";
import { testCardEnvironment } from "@/lib/server/test-cards/params";
import { allowSomewhere, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

// raw_exchange: the roles that see full requests (engineer, tester, admin); support never sees a full number.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowSomewhere("raw_exchange"), async (context) => {
    const environment = await testCardEnvironment(context);
    return json({ cards: listTestCards(context.config, environment) });
  }),
});
