// GET /api/openapi.json: the OpenAPI 3.1 document of the console's interface (lib/server/openapi).
import { PUBLIC, apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { consoleOpenApiDocument } from "@/lib/server/openapi/console-document";
import { documentOrigin } from "@/lib/server/openapi/origin";

export const dynamic = "force-dynamic";

// Public: API clients (Postman, Insomnia, Bruno) import it by URL without a session; it holds no secret.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(
    PUBLIC,
    async ({ request, config }) => json(consoleOpenApiDocument(documentOrigin(request, config))),
    { quiet: true },
  ),
});
