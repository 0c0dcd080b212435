// POST /api/client-certifications/{id}/finish with `{}`: judges the traffic, revokes the client, sets `done`.
import { z } from "zod";
import { certificationIdOf, viewerOf } from "@/lib/server/client-certification";
import { DEFAULT_CALL_PAGE } from "@/lib/server/client-certification/service";
import { allowSomewhere, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute(allowSomewhere("certification_run"), async (context) => {
    await context.body(z.object({}).strict());
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
