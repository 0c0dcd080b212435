// POST /api/auth/logout: ends the server-side session on every instance, clears the cookie, audits `sign_out`;
// answers where the browser goes next (the provider's end-session address in AUTH_MODE=oidc, else /signed-out).
import { signOutUrl } from "@/lib/server/identity/oidc";
import { signedOutPath } from "@/lib/server/identity/sign-in-routes";
import { logger } from "@/lib/server/util/logger";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/auth/logout"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  POST: apiRoute(route.POST, async (context) => {
    const { session, user } = await context.identity();
    const ownerId = session.ownerId;
    const ended = await session.end("signed_out");
    if (ended || user) {
      await context.audit({
        event: "sign_out",
        outcome: "success",
        userId: user?.id ?? ownerId ?? null,
        details: { session_was_live: ended },
      });
    }
    let redirect = signedOutPath();
    const settings = context.root.authSettings;
    if (settings.mode === "oidc") {
      try {
        // The subject the provider knows this user by (the session's user id), never the ID token.
        redirect = (await signOutUrl(settings, user?.id)) ?? redirect;
      } catch (error) {
        // The console session is over either way; the provider's own session stays until it expires.
        logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          "no provider sign-out",
        );
      }
    }
    return json({ signed_out: true, redirect });
  }),
});
