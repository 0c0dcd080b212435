// GET /sandbox/openapi.json: the OpenAPI 3.1 document of the embedded sandbox (lib/sandbox/openapi.ts), for importing
// into Postman, Insomnia or Bruno by URL. Answered like the sandbox's other paths: 404 when it is off.
import { sandboxOpenApiDocument } from "@/lib/sandbox/openapi";
import { isEmbeddedSandboxEnabled, sandboxDisabledResponse } from "@/lib/server/root/embedded-sandbox";
import { consoleRoot } from "@/lib/server/root";
import { documentOrigin } from "@/lib/server/http/document-origin";
import { jsonResponse, methodNotAllowed } from "@/lib/sandbox/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  if (!isEmbeddedSandboxEnabled()) {
    return sandboxDisabledResponse();
  }
  const { config } = consoleRoot();
  const origin = documentOrigin(request, config);
  const sandboxUrl = `${origin}/sandbox`;
  return jsonResponse(200, sandboxOpenApiDocument({ sandboxUrl, demoSecret: config.sandboxDemoSecret }));
}

const refuse = async (request: Request) => methodNotAllowed(request.method, ["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
