/**
 * A route's declared access in words, with the roles the role table (lib/server/identity/roles.ts) gives it:
 * the document's operations say who may call them from the same value the wrapper enforces.
 */
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import type { RouteAccess } from "@/lib/server/http/access";
import { ROLES, rolesAllowing, type EnvironmentAction, type Role } from "@/lib/server/identity/roles";

const code = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(", ");

/** The roles that hold every one of `actions` in `environment`. */
function rolesWithAll(actions: readonly EnvironmentAction[], environment: EnvironmentName): Role[] {
  return ROLES.filter((role) => actions.every((action) => rolesAllowing(action, environment).includes(role)));
}

/** `` `tester`, `admin` everywhere; `engineer` on embedded, sandbox `` for environment actions. */
function rolesByEnvironment(actions: readonly EnvironmentAction[]): string {
  const where = new Map<Role, EnvironmentName[]>();
  for (const environment of ENVIRONMENTS) {
    for (const role of rolesWithAll(actions, environment))
      where.set(role, [...(where.get(role) ?? []), environment]);
  }
  const everywhere = [...where]
    .filter(([, names]) => names.length === ENVIRONMENTS.length)
    .map(([role]) => role);
  const some = [...where].filter(([, names]) => names.length < ENVIRONMENTS.length);
  return [
    ...(everywhere.length > 0 ? [`${code(everywhere)} everywhere`] : []),
    ...some.map(([role, names]) => `${code([role])} on ${names.join(", ")}`),
  ].join("; ");
}

/** Who may call a route with `access`, as a sentence of the operation's description. */
export function accessText(access: RouteAccess): string {
  switch (access.kind) {
    case "public":
    case "refusal":
      return "Public: anyone may call it.";
    case "signed_in":
      return `Any signed-in user with a console role (${code(ROLES)}).`;
    case "environment":
      return (
        `Needs ${code(access.actions)} in the session's environment (${rolesByEnvironment(access.actions)}); ` +
        "403 `forbidden_by_role` otherwise."
      );
    case "somewhere":
      return (
        `Needs \`${access.action}\` in at least one environment (${rolesByEnvironment([access.action])}); ` +
        "403 `forbidden_by_role` otherwise."
      );
    case "global": {
      const roles = ROLES.filter((role) =>
        access.actions.every((action) => rolesAllowing(action).includes(role)),
      );
      return `Needs ${code(access.actions)} (${code(roles)}); 403 \`forbidden_by_role\` otherwise.`;
    }
  }
}

/** The roles that may call a route with `access` in some environment (the document's `x-console-roles`). */
export function accessRoles(access: RouteAccess): Role[] {
  switch (access.kind) {
    case "public":
    case "refusal":
    case "signed_in":
      return [...ROLES];
    case "environment":
      return ROLES.filter((role) =>
        ENVIRONMENTS.some((where) => rolesWithAll(access.actions, where).includes(role)),
      );
    case "somewhere":
      return ROLES.filter((role) =>
        ENVIRONMENTS.some((where) => rolesWithAll([access.action], where).includes(role)),
      );
    case "global":
      return ROLES.filter((role) => access.actions.every((action) => rolesAllowing(action).includes(role)));
  }
}
