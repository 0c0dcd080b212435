// GET /api/client-certifications: the certifications kept, newest first. POST: starts one (DESIGN.md §11), 201
// with the fresh sandbox client's secret, the one time it leaves the server.
import { clientCertificationService } from "@/lib/server/client-certification";
import { operatorOf } from "@/lib/server/certification/operator";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { requestOrigin } from "@/lib/server/http/host-trust";
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";
import { startClientCertificationSchema } from "@/lib/shared/client-certification-contract";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("certification_run"), async () => {
  const service = await clientCertificationService();
  return json({ certifications: await service.list() });
});

export const POST = apiRoute(allowSomewhere("certification_run"), async (context) => {
  const input = await context.body(startClientCertificationSchema);
  const user = await context.user();
  assertAllowed(user.roles, "certification_run", input.environment);
  const origin = requestOrigin(context.request, context.config) ?? context.config.publicOrigins[0]!;
  const service = await clientCertificationService();
  const started = await service.start(operatorOf(context.config, user), origin);
  context.annotate({ client_certification: started.id, client_id: started.client_id });
  await context.audit({
    event: "client_certification_started",
    outcome: "success",
    environment: input.environment,
    operation: "client_certification",
    details: { certification_id: started.id, client_id: started.client_id },
  });
  return Response.json(started, {
    status: 201,
    headers: { Location: `/api/client-certifications/${started.id}` },
  });
});

const refuse = methodNotAllowed(["GET", "POST"]);
export { refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET", "POST"]);
