// POST /api/client-certifications/{id}/plans/{plan}/end: ends the plan and judges it on its own calls.
import { certificationIdOf, viewerOf } from "@/lib/server/client-certification";
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { planIdSchema } from "@/lib/shared/client-certification-contract";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/client-certifications/[id]/plans/[plan]/end"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const input = await context.body();
    const id = certificationIdOf(context.request);
    const plan = planIdSchema.safeParse(new URL(context.request.url).pathname.split("/")[5]);
    if (!plan.success) throw new ApiError("not_found", "There is no plan with that id.");
    const service = await (await context.services()).clientCertification();
    const result = await service.endPlan(
      id,
      plan.data,
      viewerOf(await context.user()),
      input.exit_code ?? null,
    );
    return json(result);
  }),
});
