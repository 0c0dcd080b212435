// GET /api/me: the signed-in user and what their roles allow, or {"user": null} (200: pages then show sign-in).
import { meResponse } from "@/lib/server/identity/me";
import { userStorageKey } from "@/lib/server/identity/user-key";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/me"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const { user, refusal } = await context.identity();
    // The page must learn of a suspension or an ended session, not be told who it is.
    if (refusal) throw refusal;
    const environments = context.config.environments.map(({ name }) => name);
    return json(meResponse(user, context.config.authMode, environments, userStorageKey));
  }),
});
