// POST /api/client-certifications/{id}/steps/{step} with `{}`: arms the step for this certification's client
// only, ending the one before (the page's "Start step"; a CI suite calls it too).
import { certificationIdOf, viewerOf } from "@/lib/server/client-certification";
import { DEFAULT_CALL_PAGE } from "@/lib/server/client-certification/service";
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { clientStepIdSchema } from "@/lib/shared/client-certification-contract";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/client-certifications/[id]/steps/[step]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    await context.body();
    const id = certificationIdOf(context.request);
    const step = clientStepIdSchema.safeParse(new URL(context.request.url).pathname.split("/")[5]);
    if (!step.success)
      throw new ApiError(
        "not_found",
        `There is no step of that name; steps: ${clientStepIdSchema.options.join(", ")}.`,
      );
    const service = await (await context.services()).clientCertification();
    const viewer = viewerOf(await context.user());
    const view = await context.audited(
      {
        event: "client_certification_step_armed",
        outcome: "success",
        environment: "embedded",
        operation: "client_certification",
        details: { certification_id: id, step: step.data },
      },
      () => service.arm(id, step.data, viewer, { limit: DEFAULT_CALL_PAGE }),
      () => ({}),
    );
    return json(view);
  }),
});
