/**
 * What a route file exports: a handler for each method its catalogue entry declares, 405 (with Allow) for every
 * other method, and OPTIONS. `defineRoute` takes the catalogue entry, so a method that is not declared cannot
 * be served, and a declared one that is not served does not compile (nor load).
 */
import "server-only";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import { REFUSAL, ROUTE_ACCESS, type RouteAccess } from "./access";
import { ROUTE_METHODS, type DeclaredMethod, type DeclaredRoute, type RouteMethod } from "./declaration";

/** The property of a handler made by `apiRoute`: the declaration it serves. */
const ROUTE_DECLARATION = Symbol.for("card-services-console.route-declaration");

export type RouteHandler = ((request: Request) => Promise<Response>) & {
  [ROUTE_ACCESS]: RouteAccess;
  [ROUTE_DECLARATION]?: DeclaredMethod;
};

export function declare(
  declaration: DeclaredMethod | null,
  handler: (request: Request) => Promise<Response>,
): RouteHandler {
  return Object.assign(handler, {
    [ROUTE_ACCESS]: declaration?.access ?? REFUSAL,
    ...(declaration ? { [ROUTE_DECLARATION]: declaration } : {}),
  });
}

/** The declaration a handler serves, if it was made by `apiRoute`. */
export function declarationOf(handler: unknown): DeclaredMethod | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as Record<symbol, DeclaredMethod | undefined>)[ROUTE_DECLARATION];
}

/** The handler for methods a route does not serve: 405 in the one error shape, with Allow. */
function methodNotAllowed(allowed: readonly string[]): RouteHandler {
  const allow = [...allowed, "OPTIONS"].join(", ");
  return declare(null, async (request) => {
    const error = new ApiError(
      "method_not_allowed",
      `${request.method} is not allowed here; use ${allowed.join(" or ")}.`,
      undefined,
      { Allow: allow },
    );
    logger.info({ method: request.method, path: new URL(request.url).pathname, status: 405 }, "api call");
    return error.toResponse();
  });
}

/** OPTIONS: the allowed methods, and no CORS headers (the console API is same-origin only). */
function optionsHandler(allowed: readonly string[]): RouteHandler {
  const allow = [...allowed, "OPTIONS"].join(", ");
  return declare(
    null,
    async () => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } }),
  );
}

export type RouteExports = Record<RouteMethod | "OPTIONS", RouteHandler>;

type ServedMethods<T extends DeclaredRoute> = {
  [M in RouteMethod as T[M] extends DeclaredMethod ? M : never]: RouteHandler;
};

/** Each handler serves its own method's declaration of this route, and every declared method is served. */
function assertServesDeclaration(route: DeclaredRoute, handlers: Partial<Record<RouteMethod, RouteHandler>>) {
  for (const method of ROUTE_METHODS) {
    const declared = route[method];
    const served = declarationOf(handlers[method]);
    if (declared === served) continue;
    throw new Error(
      `${method} ${route.template}: ${declared ? "declared" : "not declared"} in the catalogue, ` +
        `${served ? `served with the declaration of ${served.method} ${served.template}` : "not served"}.`,
    );
  }
}

/**
 * Every method's export of a route file: the handlers of its catalogue entry, 405 for the other methods, and
 * OPTIONS. Next reads each method as a named export, so a route file writes
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, { GET: apiRoute(route.GET, …) });`.
 */
export function defineRoute<T extends DeclaredRoute>(route: T, handlers: ServedMethods<T>): RouteExports {
  const given = handlers as Partial<Record<RouteMethod, RouteHandler>>;
  assertServesDeclaration(route, given);
  const allowed = ROUTE_METHODS.filter((method) => given[method]);
  const refuse = methodNotAllowed(allowed);
  const exports = { OPTIONS: optionsHandler(allowed) } as RouteExports;
  for (const method of ROUTE_METHODS) exports[method] = given[method] ?? refuse;
  return exports;
}
