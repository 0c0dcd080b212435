// GET /api/certification/public-key: the public JWK (Ed25519) that verifies this console's evidence bundles.
import { PUBLIC, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

// Public: the key only verifies bundles (each bundle carries it too); verifiers need no console account.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(PUBLIC, async (context) => {
    const service = await (await context.services()).certification();
    return json(service.publicKey);
  }),
});
