// GET /api/certification/public-key: the public JWK (Ed25519) that verifies this console's evidence bundles.
import { certificationService } from "@/lib/server/certification/service";
import { PUBLIC, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

// Public: the key only verifies bundles (each bundle carries it too); verifiers need no console account.
export const GET = apiRoute(PUBLIC, async () => {
  const service = await certificationService();
  return json(service.publicKey);
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
