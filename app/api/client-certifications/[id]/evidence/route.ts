// GET /api/client-certifications/{id}/evidence: the signed docs/design.md §8 bundle with "kind": "client" (application/zip).
import { certificationIdOf, viewerOf } from "@/lib/server/client-certification";
import { buildClientEvidence } from "@/lib/server/client-certification/evidence";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { bundleResponse } from "@/lib/server/certification/evidence/bundle";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/client-certifications/[id]/evidence"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = certificationIdOf(context.request);
    const service = await (await context.services()).clientCertification();
    const bundle = await buildClientEvidence(service, id, viewerOf(await context.user()), {
      key: await (await context.services()).clientEvidenceKey(),
      console: consoleInfo(context.config.certification),
      specification: specificationInfo(context.config.certification),
    });
    await context.audit({
      event: "client_certification_evidence_downloaded",
      outcome: "success",
      environment: "embedded",
      operation: "client_certification",
      details: { certification_id: id, bytes: bundle.zip.byteLength },
    });
    return bundleResponse(bundle);
  }),
});
