// GET /api/certification/runs/{id}/evidence: the run's signed evidence bundle (application/zip attachment).
import { assertAllowed } from "@/lib/server/identity/enforce";
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { bundleResponse } from "@/lib/server/certification/evidence/bundle";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/certification/runs/[id]/evidence"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = new URL(context.request.url).pathname.split("/")[4] ?? "";
    const service = await (await context.services()).certification();
    assertAllowed((await context.user()).roles, "certification_run", await service.environmentOf(id));
    const bundle = await service.bundle(id);
    context.annotate({ run_id: id, bytes: bundle.zip.byteLength });
    await context.audit({
      event: "certification_evidence_downloaded",
      outcome: "success",
      operation: "certification_run",
      details: { run_id: id, bytes: bundle.zip.byteLength },
    });
    return bundleResponse(bundle);
  }),
});
