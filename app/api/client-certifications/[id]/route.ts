// GET /api/client-certifications/{id}: status, steps, checks so far and the recorded calls (masked, redacted).
import { certificationIdOf, clientCertificationService } from "@/lib/server/client-certification";
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("certification_run"), async (context) => {
  const service = await clientCertificationService();
  return json(await service.get(certificationIdOf(context.request)));
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
