/**
 * Identity (docs/design.md §6): who the caller is, and what their roles allow. Server-only; pages import
 * `lib/server/identity/roles` and `lib/server/identity/me` (isomorphic) instead. The user guide is docs/operations/sign-in-and-roles.md.
 *
 * - `AUTH_MODE=none`: everyone is `LOCAL_USER` with every role (the console listens on loopback only).
 * - `AUTH_MODE=oidc` (`./oidc`, `./sign-in-flow`): authorization code + PKCE with openid-client. The state,
 *   nonce, PKCE verifier and return path wait in a sealed, HttpOnly, SameSite=Lax, 10-minute cookie
 *   (`./pending-sign-in`), which binds the callback to the browser that started the sign-in without any shared
 *   storage. The callback route stores the returned user (id, name, groups) in the server-side session; each
 *   request's roles are recomputed from those groups (`currentUser`), so a ROLE_GROUPS change applies at once.
 * - `AUTH_MODE=proxy` (`./proxy`): headers believed only from a trusted peer that sends the shared secret.
 *
 * Enforcement: routes call `requireUser(currentUser(...))` (401 `not_signed_in`) then
 * `assertAllowed(user.roles, action, environment)` (403 `forbidden_by_role`, naming the role that would allow it);
 * `GET /api/me` answers `meResponse(user, mode, environments)`.
 */
import "server-only";
import type { SignedInUser } from "./me";
import { identityFromProxy } from "./proxy";
import { ROLES, rolesFromGroups } from "./roles";
import type { AuthSettings } from "./settings";

export { assertAllowed } from "./enforce";
export { type SignedInUser } from "./me";
export type { AuthSettings } from "./settings";
/** The one user of `AUTH_MODE=none`. */
export const LOCAL_USER: Readonly<SignedInUser> = Object.freeze({
  id: "local",
  name: "Local user",
  groups: [],
  roles: [...ROLES],
});

export interface CurrentUserInput {
  request: Pick<Request, "headers" | "url">;
  /** The socket's address is in TRUSTED_PROXIES (decided by lib/server/http). */
  peerIsTrusted: boolean;
  /** `oidc`: the user stored in the server-side session at sign-in, or null. */
  sessionUser: Pick<SignedInUser, "id" | "name" | "groups" | "email"> | null;
}

/** The caller, or null when not signed in. */
export function currentUser(settings: AuthSettings, input: CurrentUserInput): SignedInUser | null {
  switch (settings.mode) {
    case "none":
      return { ...LOCAL_USER, roles: [...LOCAL_USER.roles], groups: [] };
    case "proxy":
      return identityFromProxy(input.request, settings, input.peerIsTrusted);
    case "oidc": {
      const stored = input.sessionUser;
      if (!stored) return null;
      return {
        ...stored,
        groups: [...stored.groups],
        roles: rolesFromGroups(stored.groups, settings.roleGroups),
      };
    }
  }
}
