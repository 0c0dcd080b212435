// GET /api/auth/callback: the provider's answer. Signed in: a new server-side session, audited `sign_in`, 302 to
// return_to. Refused (or the user is suspended): audited `sign_in_failed`, 302 to /signed-out?error=<code>.
import { finishSignIn } from "@/lib/server/identity/sign-in-flow";
import {
  oidcSettingsOrNotFound,
  signInFlowOptions,
  signedOutPath,
} from "@/lib/server/identity/sign-in-routes";
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/auth/callback"];

function redirect(location: string, cookie: string): Response {
  const headers = new Headers({ Location: location });
  headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 302, headers });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const settings = oidcSettingsOrNotFound(context.config, context.root.authSettings);
    const result = await finishSignIn(
      settings,
      context.request,
      signInFlowOptions(context.request, context.config),
    );
    if (!result.ok) {
      await context.audit({ event: "sign_in_failed", outcome: "failure", reason: result.error.code });
      return redirect(signedOutPath(result.error.code), result.clearCookie);
    }
    const { user, returnTo } = result.signIn;
    if (await (await context.services()).suspensions.activeFor(user.id)) {
      await context.audit({
        event: "sign_in_failed",
        outcome: "failure",
        userId: user.id,
        reason: "user_suspended",
      });
      return redirect(signedOutPath("user_suspended"), result.clearCookie);
    }
    const session = await context.session();
    // Whatever this browser held before (another user's session included) is ended, not reused.
    if (session.sessionId) await session.end("signed_out");
    const { id, name, groups, email } = user;
    // The ID token is not kept: the provider sign-out names the user by `logout_hint` instead.
    session.signIn({ id, name, groups, ...(email ? { email } : {}) }, user.roles);
    await context.audit({
      event: "sign_in",
      outcome: "success",
      userId: user.id,
      roles: user.roles,
      details: { name: user.name.slice(0, 200), groups: user.groups.join(",").slice(0, 500) },
    });
    return redirect(returnTo, result.clearCookie);
  }),
});
