// GET /api/auth/login?return_to=/path: 302 to the OpenID provider, with the sealed pending sign-in cookie.
import { oidcSettingsOrNotFound, signInFlowOptions } from "@/lib/server/identity/sign-in-routes";
import { startSignIn } from "@/lib/server/identity/sign-in-flow";
import { SignInError } from "@/lib/server/identity/oidc";
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/auth/login"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const settings = oidcSettingsOrNotFound(context.config, context.root.authSettings);
    let started: Response;
    try {
      started = await startSignIn(
        settings,
        context.request,
        signInFlowOptions(context.request, context.config),
      );
    } catch (error) {
      if (error instanceof SignInError) {
        await context.audit({ event: "sign_in_failed", outcome: "failure", reason: error.code });
        throw new ApiError("upstream_unreachable", error.message, { sign_in_error: error.code });
      }
      throw error;
    }
    const headers = new Headers(started.headers);
    return new Response(null, { status: 302, headers });
  }),
});
