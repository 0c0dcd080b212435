// POST /api/certification/verify: checks an uploaded evidence bundle (application/zip body) — hashes, signature, key.
import type { VerifyResponse } from "@/lib/shared/certification-api";
import { certificationService } from "@/lib/server/certification/service";
import { readUploadedBundle } from "@/lib/server/certification/upload";
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const POST = apiRoute(
  allowSomewhere("certification_run"),
  async (context) => {
    let bytes = 0;
    const result: VerifyResponse = await context.audited(
      { event: "certification_evidence_verified", outcome: "success", operation: "certification_verify" },
      async () => {
        const zip = await readUploadedBundle(context.request);
        bytes = zip.byteLength;
        return (await certificationService()).verify(zip);
      },
      // The outcome is the upload's verdict: a bundle that fails its checks is worth finding in the log.
      (verdict) => ({ outcome: verdict.ok ? "success" : "failure", details: { bytes, intact: verdict.ok } }),
    );
    context.annotate({ bytes, intact: result.ok });
    return json(result);
  },
  { bodyType: "application/zip" },
);

const refuse = methodNotAllowed(["POST"]);
export { refuse as GET, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["POST"]);
