/**
 * The console's side of the OIDC routes: the settings and cookie options they share, and where a failed
 * sign-in sends the browser.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import { SIGNED_OUT_PATH } from "./auth-settings";
import { ApiError } from "@/lib/server/util/errors";
import { isSecureRequest } from "@/lib/server/config/host-trust";
import type { AuthSettings, OidcAuthSettings } from "./settings";
import type { SignInFlowOptions } from "./sign-in-flow";

/** The OIDC settings; 404 `not_found` when the console does not sign people in itself. */
export function oidcSettingsOrNotFound(config: ServerConfig, settings: AuthSettings): OidcAuthSettings {
  if (settings.mode !== "oidc") {
    throw new ApiError(
      "not_found",
      `Sign-in through the console is for AUTH_MODE=oidc; this console runs with AUTH_MODE=${config.authMode}.`,
    );
  }
  return settings;
}

export function signInFlowOptions(request: Request, config: ServerConfig): SignInFlowOptions {
  return { passwords: config.sessionPasswords, secure: isSecureRequest(request, config) };
}

/** The page that explains a failed sign-in (`error` is a SignInError code) or confirms a sign-out. */
export function signedOutPath(error?: string): string {
  return error ? `${SIGNED_OUT_PATH}?error=${encodeURIComponent(error)}` : SIGNED_OUT_PATH;
}
