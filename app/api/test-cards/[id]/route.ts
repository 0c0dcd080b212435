// GET /api/test-cards/{id}?environment=NAME: one test card's full number, fetched when a user chooses it.
import { testCardNumber } from "@/lib/server/test-cards/catalogue";
import { testCardEnvironment, testCardId } from "@/lib/server/test-cards/params";
import { allowSomewhere, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowSomewhere("raw_exchange"), async (context) => {
    const id = testCardId(context.request);
    const environment = await testCardEnvironment(context);
    return json({ card_number: testCardNumber(context.config, environment, id) });
  }),
});
