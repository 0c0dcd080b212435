// GET /api/postman-collection.json?environment=NAME: the Card Services API as a Postman v2.1 collection for that
// environment (lib/server/postman). Engineers, testers and admins: the roles that may copy calls as code there.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { postmanCollection } from "@/lib/server/postman/collection";
import { postmanFileName, postmanTarget } from "@/lib/server/postman/download";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/postman-collection.json"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async ({ request, config, user }) => {
    const target = postmanTarget(request, config, (await user()).roles);
    const response = json(postmanCollection(target));
    response.headers.set("Content-Disposition", postmanFileName(target, "collection"));
    return response;
  }),
});
