/**
 * The wrapper of every console API route handler: guards (Origin, content type, body size), one error
 * shape, `Cache-Control: no-store`, the session cookie written back only when it changed, and one log line
 * per call. An unexpected throw becomes a logged 500 in the same shape.
 */
import "server-only";
import type { z } from "zod";
import { getConfig } from "@/lib/config";
import { ApiError, internalError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { getSession, type Session } from "@/lib/session";
import { assertBodyType, assertSameOrigin, parseJsonBody, readBodyText } from "./guards";
import { assertAcceptedHost } from "./host-trust";
import { clientAddress } from "./peer-address";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

export interface RouteContext {
  request: Request;
  /** The session, read on first use; written back after the handler when it changed. */
  session(): Promise<Session>;
  /** The JSON body validated with `schema` (400 with field details otherwise). */
  body<S extends z.ZodType>(schema: S): Promise<z.output<S>>;
  /** Adds fields to this call's one log line (never secrets; card numbers are masked anyway). */
  annotate(fields: Record<string, unknown>): void;
}

export interface RouteOptions {
  /** Log at debug instead of info (the health check). */
  quiet?: boolean;
  /** The one media type a body must have: JSON unless a route takes an upload (an evidence zip). */
  bodyType?: "application/json" | "application/zip";
}

export type RouteHandler = (request: Request) => Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status });
}

export function apiRoute(
  handler: (context: RouteContext) => Promise<Response>,
  options: RouteOptions = {},
): RouteHandler {
  return async (request) => {
    const started = performance.now();
    let sessionPromise: Promise<Session> | undefined;
    let response: Response;
    let errorCode: string | undefined;
    let annotations: Record<string, unknown> = {};
    const config = getConfig();
    try {
      assertAcceptedHost(request, config);
      if (MUTATING.has(request.method)) {
        assertSameOrigin(request, config);
        if (WITH_BODY.has(request.method)) assertBodyType(request, options.bodyType ?? "application/json");
      }
      const context: RouteContext = {
        request,
        session: () => (sessionPromise ??= getSession(request)),
        body: async (schema) => parseJsonBody(await readBodyText(request), schema),
        annotate: (fields) => {
          annotations = { ...annotations, ...fields };
        },
      };
      response = await handler(context);
    } catch (error) {
      response = errorResponse(error, request);
      errorCode = error instanceof ApiError ? error.code : "internal_error";
      if (error instanceof ApiError && error.status >= 500)
        annotations = { ...annotations, error: error.message };
    }
    if (sessionPromise) {
      try {
        response = await (await sessionPromise).commit(response);
      } catch (error) {
        response = errorResponse(error, request);
        errorCode = error instanceof ApiError ? error.code : "internal_error";
      }
    }
    response.headers.set("Cache-Control", "no-store");
    const fields = {
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      client: clientAddress(request, config.trustedProxies),
      ...(errorCode ? { code: errorCode } : {}),
      ...annotations,
    };
    if (options.quiet && !errorCode) logger.debug(fields, "api call");
    else logger.info(fields, "api call");
    return response;
  };
}

function errorResponse(error: unknown, request: Request): Response {
  if (error instanceof ApiError) return error.toResponse();
  logger.error(
    {
      method: request.method,
      path: new URL(request.url).pathname,
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : String(error),
    },
    "unexpected error in a route handler",
  );
  return internalError().toResponse();
}

/** The handler for methods a route does not serve: 405 in the one error shape, with Allow. */
export function methodNotAllowed(allowed: readonly string[]): RouteHandler {
  const allow = [...allowed, "OPTIONS"].join(", ");
  return async (request) => {
    const error = new ApiError(
      "method_not_allowed",
      `${request.method} is not allowed here; use ${allowed.join(" or ")}.`,
      undefined,
      { Allow: allow },
    );
    logger.info({ method: request.method, path: new URL(request.url).pathname, status: 405 }, "api call");
    return error.toResponse();
  };
}

/** OPTIONS: the allowed methods, and no CORS headers (the console API is same-origin only). */
export function optionsHandler(allowed: readonly string[]): RouteHandler {
  const allow = [...allowed, "OPTIONS"].join(", ");
  return async () =>
    new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } });
}
