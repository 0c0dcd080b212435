// GET /api/me: the signed-in user and what their roles allow, or {"user": null} (200: pages then show sign-in).
import { meResponse } from "@/lib/server/identity/me";
import { userStorageKey } from "@/lib/server/identity/user-key";
import { PUBLIC, apiRoute, json, defineRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(PUBLIC, async (context) => {
    const { user } = await context.identity();
    const environments = context.config.environments.map(({ name }) => name);
    return json(meResponse(user, context.config.authMode, environments, userStorageKey));
  }),
});
