// GET /api/client-certifications/{id}: status, steps, checks so far and the recorded calls (masked, redacted).
import { certificationIdOf } from "@/lib/server/client-certification";
import { allowSomewhere, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowSomewhere("certification_run"), async (context) => {
    const service = (await context.services()).clientCertification;
    return json(await service.get(certificationIdOf(context.request)));
  }),
});
