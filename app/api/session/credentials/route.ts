// PUT /api/session/credentials: {client_id, client_secret} or {"profile": "demo"}; kept in the session only.
import { can } from "@/lib/server/identity/roles";
import { describeSession } from "@/lib/server/token/session-info";
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/session/credentials"];

// Credentials are for requesting tokens: a role that may do that in some environment may set them.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  PUT: apiRoute(route.PUT, async (context) => {
    const input = await context.body();
    const session = await context.session();
    if ("profile" in input) {
      if (!context.config.embeddedSandbox) {
        throw new ApiError(
          "environment_unavailable",
          "The demo profile needs the embedded sandbox, which is off.",
        );
      }
      // The demo clients exist only in the embedded sandbox: select it with them.
      session.update({ credentials: { kind: "demo" }, environment: "embedded", token: undefined });
    } else {
      session.update({
        credentials: { kind: "user", clientId: input.client_id, clientSecret: input.client_secret },
        token: undefined,
      });
    }
    const user = await context.user();
    await context.audit({
      event: "credentials_set",
      outcome: "success",
      environment: await context.environment(),
      details:
        "profile" in input
          ? { profile: "demo" }
          : { profile: "user", client_id: input.client_id.slice(0, 200) },
    });
    const call = context.root.calls.ofSession(session);
    return json(
      describeSession(context.config, call, (environment) => can(user.roles, "token_details", environment)),
    );
  }),
});
