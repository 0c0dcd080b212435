// POST /api/certification/verify: checks an uploaded evidence bundle (application/zip body) — hashes, signature, key.
import type { VerifyResponse } from "@/lib/server/certification/api";
import { certificationService } from "@/lib/server/certification/service";
import { readUploadedBundle } from "@/lib/server/certification/upload";
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const POST = apiRoute(
  allowSomewhere("certification_run"),
  async (context) => {
    const zip = await readUploadedBundle(context.request);
    const service = await certificationService();
    const result: VerifyResponse = await service.verify(zip);
    context.annotate({ bytes: zip.byteLength, intact: result.ok });
    return json(result);
  },
  { bodyType: "application/zip" },
);

const refuse = methodNotAllowed(["POST"]);
export { refuse as GET, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["POST"]);
