// GET /api/certification/public-key: the public JWK (Ed25519) that verifies this console's evidence bundles.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/certification/public-key"];

// Public: the key only verifies bundles (each bundle carries it too); verifiers need no console account.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const service = await (await context.services()).certification();
    return json(service.publicKey);
  }),
});
