// POST /api/certification/verify: checks an uploaded evidence bundle (application/zip body) — hashes, signature, and
// who signed it (this console, a trusted key, or an unknown one).
import type { VerifyResponse } from "@/lib/shared/certification-api";
import { readUploadedBundle } from "@/lib/server/certification/upload";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/certification/verify"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    let bytes = 0;
    const result: VerifyResponse = await context.audited(
      { event: "certification_evidence_verified", outcome: "success", operation: "certification_verify" },
      async () => {
        const zip = await readUploadedBundle(context.request);
        bytes = zip.byteLength;
        return (await (await context.services()).certification()).verify(zip);
      },
      // The outcome is the upload's verdict: a bundle that fails its checks is worth finding in the log.
      (verdict) => ({
        outcome: verdict.ok ? "success" : "failure",
        details: { bytes, intact: verdict.ok, signer: verdict.signer?.kind ?? null },
      }),
    );
    context.annotate({ bytes, intact: result.ok });
    return json(result);
  }),
});
