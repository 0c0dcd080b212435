// GET /api/openapi.json: the OpenAPI 3.1 document of the console's interface (lib/server/openapi).
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { consoleOpenApiDocument } from "@/lib/server/openapi/console-document";
import { documentOrigin } from "@/lib/server/http/document-origin";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/openapi.json"];

// Public: API clients (Postman, Insomnia, Bruno) import it by URL without a session; it holds no secret.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async ({ request, config }) =>
    json(consoleOpenApiDocument(documentOrigin(request, config))),
  ),
});
