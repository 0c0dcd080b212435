// GET /api/certification/public-key: the public JWK (Ed25519) that verifies this console's evidence bundles.
import { certificationService } from "@/lib/certification/service";
import { apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => {
  // access: certification_run (read)
  const service = await certificationService();
  return json(service.publicKey);
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
