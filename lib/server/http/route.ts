/**
 * The wrapper of every console API route handler: guards (Host, Origin, content type, body size), the caller's
 * identity and the access the route declares (401 `not_signed_in`, 403 `forbidden_by_role`), the per-user rate
 * limit of calls that reach the upstream (429 `rate_limited`), one error shape, `Cache-Control: no-store`, the
 * session cookie written back only when it changed, an audit row for every refusal (401/403/409/429) of a signed-in
 * caller (an anonymous caller's are summarised per address and minute, and throttled: ./anonymous-refusals), and
 * one log line per call. An unexpected throw becomes a logged 500 in the same shape.
 */
import "server-only";
import type { z } from "zod";
import type { AuditEventName } from "@/lib/shared/audit-events";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import type { AuditEntryInput } from "@/lib/server/audit";
import { toAuditEntry } from "@/lib/server/audit/entry";
import { assertAllowed, requireSomeRole, requireUser } from "@/lib/server/identity/enforce";
import type { SignedInUser } from "@/lib/server/identity/me";
import { resolveIdentity, type RequestIdentity } from "@/lib/server/identity/request-identity";
import { can, cardNumberDisplay, ENVIRONMENT_ACTIONS } from "@/lib/server/identity/roles";
import { currentEnvironment } from "@/lib/server/card-api/environments";
import { getConfig, type ServerConfig } from "@/lib/server/config";
import { ApiError, internalError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import { getMetrics, routeLabel } from "@/lib/server/metrics";
import { spendUpstreamCall } from "@/lib/server/http/rate-limit";
import { getServices, type Services } from "@/lib/server/root/services";
import type { Session } from "@/lib/server/session";
import { ROUTE_ACCESS, REFUSAL, type RouteAccess } from "./access";
import { assertBodyType, assertSameOrigin, parseJsonBody, readBodyText } from "./guards";
import { assertAcceptedHost } from "./host-trust";
import { clientAddress } from "./peer-address";

export { PUBLIC, SIGNED_IN, allowGlobal, allowIn, allowSomewhere, type RouteAccess } from "./access";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);
/** Refusals that are audited (DESIGN.md §7). */
const AUDITED_REFUSALS = new Set([401, 403, 409, 429]);

/** An audit row's fields that the route knows; the wrapper adds who, from where, and the environment. */
export type AuditFields = Omit<AuditEntryInput, "clientAddress" | "cardMask" | "event"> & {
  event: AuditEventName;
};

export interface RouteContext {
  request: Request;
  /** The session, read on first use; written back after the handler when it changed. */
  session(): Promise<Session>;
  /** The caller and their session (resolved before the handler on every route that is not public). */
  identity(): Promise<RequestIdentity>;
  /** The signed-in caller; 401 `not_signed_in` when there is none. */
  user(): Promise<SignedInUser>;
  /** The environment the call acts on: the session's. */
  environment(): Promise<EnvironmentName>;
  services(): Promise<Services>;
  config: ServerConfig;
  /** The JSON body validated with `schema` (400 with field details otherwise). */
  body<S extends z.ZodType>(schema: S): Promise<z.output<S>>;
  /** Adds fields to this call's one log line (never secrets; card numbers are masked anyway). */
  annotate(fields: Record<string, unknown>): void;
  /**
   * Writes one audit row now (awaited). When it cannot be written the call fails with 503
   * `storage_unavailable`, and the row goes to the server log instead, so that the record is never lost.
   */
  audit(fields: AuditFields): Promise<void>;
  /**
   * Runs `call` and audits it: `describe` turns its result into the row's outcome fields; a thrown ApiError is
   * audited as a failure with its code as the reason (and not audited again as a refusal).
   */
  audited<T>(
    fields: AuditFields,
    call: () => Promise<T>,
    describe: (result: T) => Partial<AuditFields>,
  ): Promise<T>;
}

export interface RouteOptions {
  /** Log at debug instead of info (the health check). */
  quiet?: boolean;
  /** The call reaches the upstream: the per-user rate limit applies (RATE_LIMIT_PER_MINUTE). */
  upstream?: boolean;
  /** The one media type a body must have: JSON unless a route takes an upload (an evidence zip). */
  bodyType?: "application/json" | "application/zip";
}

export type RouteHandler = ((request: Request) => Promise<Response>) & { [ROUTE_ACCESS]: RouteAccess };

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status });
}

/** Errors already written to the audit log by `audited` (not audited again as refusals). */
const auditedErrors = new WeakSet<object>();

function declare(access: RouteAccess, handler: (request: Request) => Promise<Response>): RouteHandler {
  return Object.assign(handler, { [ROUTE_ACCESS]: access });
}

/** A failure of the database behind sessions, rate limits and the audit log: 503, nothing sent upstream. */
function storageFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  logger.error({ error: error instanceof Error ? error.message : String(error) }, "storage failed");
  return new ApiError(
    "storage_unavailable",
    "The console's database did not answer; nothing was sent upstream. Try again in a moment.",
  );
}

export function apiRoute(
  access: RouteAccess,
  handler: (context: RouteContext) => Promise<Response>,
  options: RouteOptions = {},
): RouteHandler {
  return declare(access, async (request) => {
    const started = performance.now();
    let response: Response;
    let errorCode: string | undefined;
    let annotations: Record<string, unknown> = {};
    const config = getConfig();
    const client = clientAddress(request, config.trustedProxies);
    let servicesPromise: Promise<Services> | undefined;
    let identityPromise: Promise<RequestIdentity> | undefined;
    const services = () =>
      (servicesPromise ??= getServices(config).catch((error) => Promise.reject(storageFailure(error))));
    const identity = () =>
      (identityPromise ??= services().then((ready) =>
        resolveIdentity(request, config, ready).catch((error) => Promise.reject(storageFailure(error))),
      ));
    /** The environment the access check or the handler resolved (the session's), once one did. */
    let actedOn: EnvironmentName | undefined;
    const environment = async () =>
      (actedOn = currentEnvironment(config, (await identity()).session.state.environment).name);
    let bodyText: Promise<string> | undefined;
    const readBody = () => (bodyText ??= readBodyText(request));

    /** The row with who, from where and where; the card shown as the caller may see it. */
    const fullEntry = async (fields: AuditFields): Promise<AuditEntryInput> => {
      const user = identityPromise
        ? await identityPromise.then((found) => found.user).catch(() => null)
        : null;
      const roles = user?.roles ?? [];
      return {
        userId: user?.id ?? null,
        roles: [...roles],
        clientAddress: client,
        cardMask: user && cardNumberDisplay(roles) === "last4" ? "last4" : "first6last4",
        ...fields,
      };
    };
    const audit = async (fields: AuditFields): Promise<void> => {
      const entry = await fullEntry(fields);
      const ready = await services();
      try {
        await ready.auditLog.append(entry);
      } catch (error) {
        // Never lost: the row, made safe as it would have been stored, goes to the server log.
        let safe: unknown = null;
        try {
          safe = toAuditEntry(entry, ready.hmacKey);
        } catch {
          safe = { event: entry.event, outcome: entry.outcome };
        }
        logger.error(
          { audit_unwritten: safe, error: error instanceof Error ? error.message : String(error) },
          "audit row could not be written",
        );
        throw new ApiError(
          "storage_unavailable",
          "The console could not write this call's audit row, so it reports it as failed; the row was logged.",
        );
      }
    };

    /**
     * A refusal's audit row. A signed-in caller's refusal is its own row; an anonymous caller's is only counted,
     * and summarised per address and minute (no database write per request of a flood).
     */
    const auditRefusal = async (error: ApiError): Promise<void> => {
      const user = identityPromise
        ? await identityPromise.then((found) => found.user).catch(() => null)
        : null;
      if (!user) {
        const ready = await services().catch(() => null);
        ready?.anonymousRefusals.count(
          client,
          error.code,
          `${request.method} ${new URL(request.url).pathname}`,
        );
        if (ready) return;
      }
      await audit({
        event: "refused",
        outcome: "failure",
        reason: error.code,
        operation: `${request.method} ${new URL(request.url).pathname}`.slice(0, 64),
        environment: (await namedEnvironment(request, bodyText ?? null)) ?? actedOn ?? null,
      }).catch(() => {
        // Logged by audit(); the refusal stands.
      });
    };

    try {
      assertAcceptedHost(request, config);
      if (MUTATING.has(request.method)) {
        assertSameOrigin(request, config);
        if (WITH_BODY.has(request.method)) assertBodyType(request, options.bodyType ?? "application/json");
      }
      if (access.kind !== "public" && access.kind !== "refusal") {
        const found = await identity();
        // An anonymous caller past its refusals' limit is throttled before anything else is done for it.
        if (!found.user) (await services()).anonymousRefusals.admit(client);
        const user = requireUser(found.user, found.session.endReason);
        annotations.user = user.id;
        await checkAccess(access, user, () => environment(), config);
        if (options.upstream) await consumeRateLimit(await services(), config, user);
      }
      const context: RouteContext = {
        request,
        config,
        session: async () => (await identity()).session,
        identity,
        user: async () => {
          const found = await identity();
          return requireUser(found.user, found.session.endReason);
        },
        environment,
        services,
        body: async (schema) => parseJsonBody(await readBody(), schema),
        annotate: (fields) => {
          annotations = { ...annotations, ...fields };
        },
        audit,
        audited: async (fields, call, describe) => {
          let result;
          try {
            result = await call();
          } catch (error) {
            if (error instanceof ApiError) {
              await audit({ ...fields, outcome: "failure", reason: error.code });
              auditedErrors.add(error);
            }
            throw error;
          }
          await audit({ ...fields, ...describe(result) });
          return result;
        },
      };
      response = await handler(context);
    } catch (error) {
      response = errorResponse(error, request);
      errorCode = error instanceof ApiError ? error.code : "internal_error";
      if (error instanceof ApiError && error.status >= 500)
        annotations = { ...annotations, error: error.message };
      if (error instanceof ApiError && AUDITED_REFUSALS.has(error.status) && !auditedErrors.has(error)) {
        await auditRefusal(error);
      }
    }
    if (identityPromise) {
      try {
        const found = await identityPromise.catch(() => null);
        const endedNow = found?.session.endedNow;
        if (endedNow) {
          // This request found the session idle or past its lifetime (one instance sees that, once).
          await audit({
            event: "session_end",
            outcome: "success",
            userId: endedNow.userId,
            reason: endedNow.reason,
          }).catch(() => {});
        }
        if (found) response = await found.session.commit(response, client);
      } catch (error) {
        response = errorResponse(error, request);
        errorCode = error instanceof ApiError ? error.code : "internal_error";
      }
    }
    response.headers.set("Cache-Control", "no-store");
    const path = new URL(request.url).pathname;
    getMetrics().requests.inc({ route: routeLabel(path), method: request.method, status: response.status });
    if (errorCode === "rate_limited") getMetrics().rateLimitRefusals.inc();
    const fields = {
      method: request.method,
      path,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      client,
      ...(errorCode ? { code: errorCode } : {}),
      ...annotations,
    };
    if (options.quiet && !errorCode) logger.debug(fields, "api call");
    else logger.info(fields, "api call");
    return response;
  });
}

const isEnvironmentName = (value: unknown): value is EnvironmentName =>
  typeof value === "string" && (ENVIRONMENTS as readonly string[]).includes(value);

/**
 * The environment a refused request named, for its audit row: `?environment=`, else the JSON body's
 * `environment` (the body the handler read, or, when nothing read it yet, a small JSON body read now). Never
 * throws: a body that is too large, gone or not JSON names nothing.
 */
async function namedEnvironment(
  request: Request,
  bodyRead: Promise<string> | null,
): Promise<EnvironmentName | undefined> {
  const fromQuery = new URL(request.url).searchParams.get("environment");
  if (isEnvironmentName(fromQuery)) return fromQuery;
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/json") return undefined;
  try {
    let text: string | null = null;
    if (bodyRead) text = await bodyRead;
    else if (WITH_BODY.has(request.method) && !request.bodyUsed) text = await readBodyText(request);
    if (!text) return undefined;
    const body: unknown = JSON.parse(text);
    const named =
      body && typeof body === "object" ? (body as { environment?: unknown }).environment : undefined;
    return isEnvironmentName(named) ? named : undefined;
  } catch {
    return undefined;
  }
}

async function checkAccess(
  access: RouteAccess,
  user: SignedInUser,
  environment: () => Promise<EnvironmentName>,
  config: ServerConfig,
): Promise<void> {
  switch (access.kind) {
    case "public":
    case "refusal":
      return;
    case "signed_in":
      requireSomeRole(user);
      return;
    case "environment": {
      const where = await environment();
      for (const action of access.actions) assertAllowed(user.roles, action, where);
      return;
    }
    case "somewhere": {
      const somewhere = config.environments.some(({ name }) => can(user.roles, access.action, name));
      if (!somewhere) assertAllowed(user.roles, access.action, await environment());
      return;
    }
    case "global":
      for (const action of access.actions) assertAllowed(user.roles, action);
      return;
  }
}

async function consumeRateLimit(services: Services, config: ServerConfig, user: SignedInUser): Promise<void> {
  try {
    await spendUpstreamCall(services.rateLimiter, user.id, config.rateLimitPerMinute);
  } catch (error) {
    // 429 as it is; a database failure is 503.
    throw storageFailure(error);
  }
}

/** Whether `user` may do anything at all in `environment` (e.g. to switch to it). */
export function canActIn(user: SignedInUser, environment: EnvironmentName): boolean {
  return ENVIRONMENT_ACTIONS.some((action) => can(user.roles, action, environment));
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
export function optionsHandler(allowed: readonly string[]): RouteHandler {
  const allow = [...allowed, "OPTIONS"].join(", ");
  return declare(
    REFUSAL,
    async () => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } }),
  );
}
