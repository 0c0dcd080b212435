/**
 * `GET /api/me` (docs/design.md §4): the signed-in user and what their roles allow, or `{"user": null}`. Shared by the
 * route (which builds it with `meResponse`) and the pages (which validate it with `meResponseSchema`).
 * Isomorphic on purpose: no secrets.
 */
import { z } from "zod";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import {
  ENVIRONMENT_ACTIONS,
  GLOBAL_ACTIONS,
  ROLES,
  can,
  cardNumberDisplay,
  needsConfirmation,
  type EnvironmentAction,
  type Role,
} from "./roles";

const AUTH_MODES = ["none", "oidc", "proxy"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

const meUserSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    roles: z.array(z.enum(ROLES)),
    /** How this user signed in: pages offer "Sign out" for `oidc` only. */
    signed_in_with: z.enum(AUTH_MODES),
    /**
     * Opaque key of this user's browser-side state (lib/server/identity/user-key): `local` for the one user of
     * AUTH_MODE=none, else a hash of the mode and id.
     */
    key: z.string().min(1),
  })
  .strict();

const environmentActionList = z.array(z.enum(ENVIRONMENT_ACTIONS));

const meAllowsSchema = z
  .object({
    /** Per configured environment, the actions the user may take there (empty list: none). */
    environments: z.partialRecord(z.enum(ENVIRONMENTS), environmentActionList),
    /** Actions not tied to an environment (the audit log). */
    global: z.array(z.enum(GLOBAL_ACTIONS)),
    /** Per configured environment, the allowed actions the page must confirm first. */
    confirm: z.partialRecord(z.enum(ENVIRONMENTS), environmentActionList),
    card_number_display: z.enum(["last4", "first6_last4"]),
  })
  .strict();

export const meResponseSchema = z.union([
  z.object({ user: z.null() }).strict(),
  z.object({ user: meUserSchema, allows: meAllowsSchema }).strict(),
]);

export type MeUser = z.infer<typeof meUserSchema>;
export type MeAllows = z.infer<typeof meAllowsSchema>;
export type MeResponse = z.infer<typeof meResponseSchema>;

/** The identity the server holds for a signed-in user (whatever the mode). */
export interface SignedInUser {
  id: string;
  name: string;
  email?: string;
  groups: string[];
  roles: Role[];
}

/** What `roles` allow in the configured `environments` (in their display order). */
export function describeAllows(roles: readonly Role[], environments: readonly EnvironmentName[]): MeAllows {
  const allowed: Partial<Record<EnvironmentName, EnvironmentAction[]>> = {};
  const confirm: Partial<Record<EnvironmentName, EnvironmentAction[]>> = {};
  for (const environment of environments) {
    const actions = ENVIRONMENT_ACTIONS.filter((action) => can(roles, action, environment));
    allowed[environment] = actions;
    confirm[environment] = actions.filter((action) => needsConfirmation(action, environment));
  }
  return {
    environments: allowed,
    global: GLOBAL_ACTIONS.filter((action) => can(roles, action)),
    confirm,
    card_number_display: cardNumberDisplay(roles),
  };
}

/** The body of `GET /api/me`; `userKey` is `userStorageKey` (server-only, lib/server/identity/user-key). */
export function meResponse(
  user: SignedInUser | null,
  mode: AuthMode,
  environments: readonly EnvironmentName[],
  userKey: (mode: AuthMode, id: string) => string,
): MeResponse {
  if (!user) return { user: null };
  return {
    user: {
      id: user.id,
      name: user.name,
      roles: [...user.roles],
      signed_in_with: mode,
      key: userKey(mode, user.id),
    },
    allows: describeAllows(user.roles, environments),
  };
}
