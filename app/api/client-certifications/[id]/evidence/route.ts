// GET /api/client-certifications/{id}/evidence: the signed §8 bundle with "kind": "client" (application/zip).
import {
  certificationIdOf,
  clientCertificationService,
  clientEvidenceKey,
} from "@/lib/server/client-certification";
import { buildClientEvidence } from "@/lib/server/client-certification/evidence";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { allowSomewhere, apiRoute, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";
import { bundleResponse } from "@/lib/server/certification/evidence/bundle";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("certification_run"), async (context) => {
  const id = certificationIdOf(context.request);
  const bundle = await buildClientEvidence(await clientCertificationService(), id, {
    key: await clientEvidenceKey(context.config),
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
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
