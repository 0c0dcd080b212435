/**
 * The two HTTP steps of OIDC sign-in, ready for `GET /api/auth/login` and `GET /api/auth/callback`: the first
 * answers the redirect to the provider and sets the sealed pending sign-in cookie; the second reads that cookie and
 * the provider's answer, and always clears the cookie. Creating the console session, the audit rows and the final
 * redirect are the callback route's (they belong to the session and audit modules).
 */
import "server-only";
import { beginSignIn, completeSignIn, SignInError, type CompleteSignInResult } from "./oidc";
import {
  pendingSignInCookieName,
  sealPendingSignIn,
  serializeClearedPendingSignInCookie,
  serializePendingSignInCookie,
  unsealPendingSignIn,
} from "./pending-sign-in";
import type { OidcAuthSettings } from "./settings";

export interface SignInFlowOptions {
  /** The SESSION_SECRET passwords, newest first. */
  passwords: readonly string[];
  /** True when the console is served over https (PUBLIC_URL): `__Host-` name and `Secure`. */
  secure: boolean;
}

/** `GET /api/auth/login?return_to=/path`: 303 to the provider with the pending sign-in cookie set. */
export async function startSignIn(
  settings: OidcAuthSettings,
  request: Request,
  options: SignInFlowOptions,
): Promise<Response> {
  const returnTo = new URL(request.url).searchParams.get("return_to");
  const { redirectUrl, pendingSignIn } = await beginSignIn(settings, returnTo);
  const sealed = await sealPendingSignIn(pendingSignIn, options.passwords);
  return new Response(null, {
    status: 303,
    headers: {
      Location: redirectUrl,
      "Set-Cookie": serializePendingSignInCookie(sealed, options.secure),
      "Cache-Control": "no-store",
    },
  });
}

export type FinishSignInResult =
  | { ok: true; signIn: CompleteSignInResult; clearCookie: string }
  | { ok: false; error: SignInError; clearCookie: string };

/** `GET /api/auth/callback?code=…&state=…`: the signed-in user, or why not. The cookie is cleared either way. */
export async function finishSignIn(
  settings: OidcAuthSettings,
  request: Request,
  options: SignInFlowOptions,
): Promise<FinishSignInResult> {
  const clearCookie = serializeClearedPendingSignInCookie(options.secure);
  const pending = await unsealPendingSignIn(
    readCookie(request, pendingSignInCookieName(options.secure)),
    options.passwords,
  );
  try {
    const signIn = await completeSignIn(settings, request.url, pending);
    return { ok: true, signIn, clearCookie };
  } catch (error) {
    if (error instanceof SignInError) return { ok: false, error, clearCookie };
    throw error;
  }
}

function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name)
      return part.slice(separator + 1).trim() || null;
  }
  return null;
}
