// POST /api/client-certifications/{id}/finish with `{}`: judges the traffic, revokes the client, sets `done`.
import { certificationIdOf, viewerOf } from "@/lib/server/client-certification";
import { DEFAULT_CALL_PAGE } from "@/lib/server/client-certification/service";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/client-certifications/[id]/finish"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    await context.body();
    const id = certificationIdOf(context.request);
    const service = await (await context.services()).clientCertification();
    const viewer = viewerOf(await context.user());
    const view = await context.audited(
      {
        event: "client_certification_finished",
        outcome: "success",
        environment: "embedded",
        operation: "client_certification",
        details: { certification_id: id },
      },
      () => service.finish(id, viewer, { limit: DEFAULT_CALL_PAGE }),
      (finished) => ({
        details: {
          certification_id: id,
          verdicts: finished.checks.map((check) => `${check.id}:${check.verdict}`).join(" "),
        },
      }),
    );
    return json(view);
  }),
});
