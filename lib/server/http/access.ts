/**
 * What a console API route needs from its caller, declared where the route is defined (`apiRoute(access, …)`):
 * the wrapper checks it before the handler runs, so a route cannot forget to. A route handler made without a
 * declaration does not compile, and test/unit/server/http/route-access.test.ts checks every exported handler.
 */
import type { EnvironmentAction, GlobalAction } from "@/lib/server/identity/roles";

export type RouteAccess =
  /** Answers anyone: health, readiness, the sign-in flow, /api/me. */
  | { kind: "public" }
  /** Any signed-in user with a console role (401 `not_signed_in`, 403 `forbidden_by_role` without a role). */
  | { kind: "signed_in" }
  /** Every one of these actions, in the environment the call acts on (the session's). */
  | { kind: "environment"; actions: readonly EnvironmentAction[] }
  /** This action in at least one configured environment. */
  | { kind: "somewhere"; action: EnvironmentAction }
  /** Every one of these environment-free actions (the audit log). */
  | { kind: "global"; actions: readonly GlobalAction[] }
  /** Refuses every call before any handler (405, OPTIONS): nothing to check. */
  | { kind: "refusal" };

export const PUBLIC: RouteAccess = { kind: "public" };
export const SIGNED_IN: RouteAccess = { kind: "signed_in" };
export const REFUSAL: RouteAccess = { kind: "refusal" };

export function allowIn(...actions: [EnvironmentAction, ...EnvironmentAction[]]): RouteAccess {
  return { kind: "environment", actions };
}

export function allowSomewhere(action: EnvironmentAction): RouteAccess {
  return { kind: "somewhere", action };
}

export function allowGlobal(...actions: [GlobalAction, ...GlobalAction[]]): RouteAccess {
  return { kind: "global", actions };
}

/** The property every route handler made by lib/server/http/route carries: its declared access. */
export const ROUTE_ACCESS = Symbol.for("card-services-console.route-access");

export function declaredAccess(handler: unknown): RouteAccess | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as Record<symbol, RouteAccess | undefined>)[ROUTE_ACCESS];
}
