/**
 * What a route file exports besides its handlers: 405 (with Allow) for every method it does not serve, and
 * OPTIONS. `defineRoute` fills them in from the methods given, so a route file names only what it serves.
 */
import "server-only";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import { REFUSAL, ROUTE_ACCESS, type RouteAccess } from "./access";

export type RouteHandler = ((request: Request) => Promise<Response>) & { [ROUTE_ACCESS]: RouteAccess };

export function declare(access: RouteAccess, handler: (request: Request) => Promise<Response>): RouteHandler {
  return Object.assign(handler, { [ROUTE_ACCESS]: access });
}

/** The handler for methods a route does not serve: 405 in the one error shape, with Allow. */
function methodNotAllowed(allowed: readonly string[]): RouteHandler {
  const allow = [...allowed, "OPTIONS"].join(", ");
  return declare(REFUSAL, async (request) => {
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
    REFUSAL,
    async () => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } }),
  );
}

const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

export type RouteExports = Record<RouteMethod | "OPTIONS", RouteHandler>;

/**
 * Every method's export of a route file: the handlers given, 405 for the other methods, and OPTIONS. Next reads
 * each method as a named export, so a route file writes
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({ GET: apiRoute(…) });`.
 */
export function defineRoute(handlers: Partial<Record<RouteMethod, RouteHandler>>): RouteExports {
  const allowed = ROUTE_METHODS.filter((method) => handlers[method]);
  const refuse = methodNotAllowed(allowed);
  const exports = { OPTIONS: optionsHandler(allowed) } as RouteExports;
  for (const method of ROUTE_METHODS) exports[method] = handlers[method] ?? refuse;
  return exports;
}
