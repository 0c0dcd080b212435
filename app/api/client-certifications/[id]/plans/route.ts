// POST /api/client-certifications/{id}/plans with `{code}`: arms a fault plan for this certification's client
// only, ending and judging the one before (docs/design.md §14).
import { certificationIdOf, viewerOf } from "@/lib/server/client-certification";
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/client-certifications/[id]/plans"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const input = await context.body();
    const id = certificationIdOf(context.request);
    const service = await (await context.services()).clientCertification();
    const viewer = viewerOf(await context.user());
    const armed = await context.audited(
      {
        event: "client_certification_plan_armed",
        outcome: "success",
        environment: "embedded",
        operation: "client_certification",
        details: { certification_id: id, code: input.code },
      },
      () => service.armPlan(id, input.code, viewer, input.reproducer_of ?? null),
      (result) => ({ details: { certification_id: id, code: input.code, plan_id: result.plan_id } }),
    );
    return Response.json(armed, { status: 201 });
  }),
});
