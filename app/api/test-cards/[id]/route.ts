// GET /api/test-cards/{id}?environment=NAME: one test card's full number, fetched when a user chooses it.
import { testCardNumber } from "@/lib/server/test-cards/catalogue";
import { testCardEnvironment, testCardId } from "@/lib/server/test-cards/params";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/test-cards/[id]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = testCardId(context.request);
    const environment = await testCardEnvironment(context);
    return json({ card_number: testCardNumber(context.config, environment, id) });
  }),
});
