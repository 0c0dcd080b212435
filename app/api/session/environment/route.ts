// PUT /api/session/environment: {environment}; only configured environments can be chosen.
import { findEnvironment } from "@/lib/server/card-api/environments";
import { can } from "@/lib/server/identity/roles";
import { describeSession } from "@/lib/server/token/session-info";
import { ApiError } from "@/lib/server/util/errors";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { apiRoute, canActIn, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/session/environment"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  PUT: apiRoute(route.PUT, async (context) => {
    const { environment } = await context.body();
    const config = context.config;
    if (!findEnvironment(config, environment)) {
      const available = config.environments.map(({ name }) => name);
      throw new ApiError(
        "environment_unavailable",
        `The ${environment} environment is not configured on this server; available: ${available.join(", ")}.`,
        { available },
      );
    }
    const user = await context.user();
    // Only to an environment where the user can do something (a support user may still use every one).
    if (!canActIn(user, environment)) assertAllowed(user.roles, "balance_inquiry", environment);
    const session = await context.session();
    // The token stays: it is bound to its token endpoint and credentials, and used only where they match.
    session.update({ environment });
    const call = context.root.calls.ofSession(session);
    return json(describeSession(context.config, call, (where) => can(user.roles, "token_details", where)));
  }),
});
