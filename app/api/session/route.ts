// GET /api/session: environment, credential source and client_id, token metadata (for roles that may see token
// details). DELETE: forget it all, and end the session on every instance (a copied cookie no longer works).
import { can } from "@/lib/server/identity/roles";
import { describeSession } from "@/lib/server/token/session-info";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/session"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const user = await context.user();
    const session = await context.session();
    const call = context.root.calls.ofSession(session);
    return json(
      describeSession(context.config, call, (environment) => can(user.roles, "token_details", environment)),
    );
  }),
  DELETE: apiRoute(route.DELETE, async (context) => {
    const user = await context.user();
    const session = await context.session();
    const environment = await context.environment();
    const heldCredentials = session.state.credentials !== undefined;
    const ended = await session.end("signed_out");
    await context.audit({
      event: "session_end",
      outcome: "success",
      environment,
      reason: "forgotten",
      details: { credentials_forgotten: heldCredentials, was_live: ended },
    });
    const call = context.root.calls.ofSession(session);
    return json(describeSession(context.config, call, (where) => can(user.roles, "token_details", where)));
  }),
});
