// GET /api/postman-environment.json?environment=NAME: a Postman environment (addresses, empty credentials) to
// import beside the collection (lib/server/postman). Engineers, testers and admins, as for the collection.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { postmanEnvironment } from "@/lib/server/postman/environment";
import { postmanFileName, postmanTarget } from "@/lib/server/postman/download";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/postman-environment.json"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async ({ request, config, user }) => {
    const target = postmanTarget(request, config, (await user()).roles);
    const response = json(postmanEnvironment(target));
    response.headers.set("Content-Disposition", postmanFileName(target, "environment"));
    return response;
  }),
});
