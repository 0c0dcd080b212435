// GET /api/certification/runs/{id}/evidence: the run's signed evidence bundle (application/zip attachment).
import { certificationService } from "@/lib/server/certification/service";
import { allowSomewhere, apiRoute, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";
import { bundleResponse } from "@/lib/server/certification/evidence/bundle";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("certification_run"), async (context) => {
  const id = new URL(context.request.url).pathname.split("/")[4] ?? "";
  const service = await certificationService();
  const bundle = await service.bundle(id);
  context.annotate({ run_id: id, bytes: bundle.zip.byteLength });
  await context.audit({
    event: "certification_evidence_downloaded",
    outcome: "success",
    operation: "certification_run",
    details: { run_id: id, bytes: bundle.zip.byteLength },
  });
  return bundleResponse(bundle);
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
