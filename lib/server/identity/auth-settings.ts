/**
 * The identity layer's settings (lib/server/identity/settings.ts) built from the server configuration, once per
 * configuration (by the composition root): the provider's discovery document is cached per settings object.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import type { AuthSettings } from "./settings";

const CALLBACK_PATH = "/api/auth/callback";
export const SIGNED_OUT_PATH = "/signed-out";

export function buildAuthSettings(config: ServerConfig): AuthSettings {
  const publicUrl = config.publicOrigins[0] ?? `http://localhost:${config.port}`;
  switch (config.authMode) {
    case "none":
      return { mode: "none" };
    case "oidc": {
      const oidc = config.oidc;
      if (!oidc?.clientSecret) throw new Error("AUTH_MODE=oidc needs OIDC_ISSUER, _CLIENT_ID and _SECRET.");
      return {
        mode: "oidc",
        roleGroups: config.roleGroups,
        oidc: {
          issuer: oidc.issuer,
          clientId: oidc.clientId,
          clientSecret: oidc.clientSecret,
          groupsClaim: oidc.groupsClaim,
          ...(oidc.displayName ? { displayName: oidc.displayName } : {}),
          redirectUri: `${publicUrl}${CALLBACK_PATH}`,
          postLogoutRedirectUri: `${publicUrl}${SIGNED_OUT_PATH}`,
        },
      };
    }
    case "proxy":
      return { mode: "proxy", roleGroups: config.roleGroups, proxy: { ...config.proxyAuth } };
  }
}
