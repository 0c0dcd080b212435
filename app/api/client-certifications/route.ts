// GET /api/client-certifications: the caller's certifications (an admin's: everyone's), newest first. POST: starts one (docs/design.md §11), 201
// with the fresh sandbox client's secret, the one time it leaves the server.
import { operatorOf } from "@/lib/server/certification/operator";
import { viewerOf } from "@/lib/server/client-certification";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { requestOrigin } from "@/lib/server/config/host-trust";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/client-certifications"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const service = await (await context.services()).clientCertification();
    return json({ certifications: await service.list(viewerOf(await context.user())) });
  }),
  POST: apiRoute(route.POST, async (context) => {
    const input = await context.body();
    const user = await context.user();
    assertAllowed(user.roles, "certification_run", input.environment);
    const origin = requestOrigin(context.request, context.config) ?? context.config.publicOrigins[0]!;
    const service = await (await context.services()).clientCertification();
    const started = await service.start(operatorOf(context.config, user), origin, {
      mode: input.mode,
      timeoutMs: input.timeout_ms,
    });
    context.annotate({ client_certification: started.id, client_id: started.client_id });
    await context.audit({
      event: "client_certification_started",
      outcome: "success",
      environment: input.environment,
      operation: "client_certification",
      details: { certification_id: started.id, client_id: started.client_id, mode: started.mode },
    });
    return json(started, 201, { Location: `/api/client-certifications/${started.id}` });
  }),
});
