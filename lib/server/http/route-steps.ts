/**
 * The steps of one API call, in order: guards → caller → access → rate limit → handler; on a throw, the error
 * response and the refusal's audit row; then the session's end and cookie; then metrics and the log line. Each
 * step reads and writes the call's state (`RouteCall`); identity and the environment are resolved once.
 */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { recordAudit, type AuditFields } from "@/lib/server/audit/record";
import { currentEnvironment } from "@/lib/server/card-api/environments";
import { auditCaller } from "@/lib/server/identity/audit-caller";
import { assertAllowed, requireSomeRole, requireUser } from "@/lib/server/identity/enforce";
import type { SignedInUser } from "@/lib/server/identity/me";
import { resolveIdentity, type RequestIdentity } from "@/lib/server/identity/request-identity";
import { can } from "@/lib/server/identity/roles";
import { methodLabel, routeLabel, segmentName, statusLabel } from "@/lib/server/metrics";
import { ApiError, internalError } from "@/lib/server/util/errors";
import { assertAcceptableUrl } from "@/lib/server/util/validation";
import { logger } from "@/lib/server/util/logger";
import type { RouteAccess } from "./access";
import { bodyTypesOf, type DeclaredMethod, type RouteOptions } from "./declaration";
import { declaredBody, declaredParams, declaredQuery } from "./declared-input";
import { assertBodyType, assertSameOrigin, readBodyText } from "./guards";
import { assertAcceptedHost } from "@/lib/server/config/host-trust";
import { clientAddress } from "@/lib/server/util/peer-address";
import { spendUpstreamCall } from "./rate-limit";
import type { RouteContext, RouteRoot, ServicesOf } from "./route";
import { namedEnvironment, WITH_BODY } from "./named-environment";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Refusals that are audited (docs/design.md §7). */
const AUDITED_REFUSALS = new Set([401, 403, 409, 429]);

/** Errors already written to the audit log by `audited` (not audited again as refusals). */
const auditedErrors = new WeakSet<object>();

/** A failure of the database behind sessions, rate limits and the audit log: 503, nothing sent upstream. */
function storageFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  logger.error({ error: error instanceof Error ? error.message : String(error) }, "storage failed");
  return new ApiError(
    "storage_unavailable",
    "The console's database did not answer; nothing was sent upstream. Try again in a moment.",
  );
}

/** One call's state, shared by the steps: what was resolved (once) and what the log line will say. */
class RouteCall<R extends RouteRoot> {
  readonly started = performance.now();
  readonly client: string | null;
  readonly path: string;
  annotations: Record<string, unknown> = {};
  errorCode: string | undefined;
  /** The environment the access check or the handler resolved (the session's), once one did. */
  actedOn: EnvironmentName | undefined;
  bodyText: Promise<string> | undefined;
  identityPromise: Promise<RequestIdentity> | undefined;
  private servicesPromise: Promise<ServicesOf<R>> | undefined;

  constructor(
    readonly root: R,
    readonly request: Request,
    readonly declaration: DeclaredMethod,
  ) {
    this.client = clientAddress(request, root.config.trustedProxies);
    this.path = new URL(request.url).pathname;
  }

  get config() {
    return this.root.config;
  }

  services(): Promise<ServicesOf<R>> {
    return (this.servicesPromise ??= (this.root.services() as Promise<ServicesOf<R>>).catch((error) =>
      Promise.reject(storageFailure(error)),
    ));
  }

  identity(): Promise<RequestIdentity> {
    return (this.identityPromise ??= this.services().then(async () =>
      resolveIdentity(this.request, await this.root.identity()).catch((error) =>
        Promise.reject(storageFailure(error)),
      ),
    ));
  }

  async environment(): Promise<EnvironmentName> {
    if (this.actedOn) return this.actedOn;
    const { session } = await this.identity();
    return (this.actedOn = currentEnvironment(this.config, session.state.environment).name);
  }

  /** The signed-in user, when identity was resolved and found one. */
  async knownUser(): Promise<SignedInUser | null> {
    return this.identityPromise ? this.identityPromise.then((found) => found.user).catch(() => null) : null;
  }

  readBody(): Promise<string> {
    return (this.bodyText ??= readBodyText(this.request));
  }

  /** The row with who, from where and where; the card shown as the caller may see it. */
  async audit(fields: AuditFields): Promise<void> {
    const caller = auditCaller(await this.knownUser(), this.client);
    await recordAudit((await this.services()).auditLog, caller, fields);
  }
}

/** Host, a URL the console can store, Origin and content type, before anything else is done. */
function checkGuards(call: RouteCall<RouteRoot>): void {
  const { request, config, declaration } = call;
  assertAcceptedHost(request, config);
  const url = new URL(request.url);
  assertAcceptableUrl(url, (index) => segmentName(declaration.template, index));
  if (!MUTATING.has(request.method)) return;
  assertSameOrigin(request, config);
  if (WITH_BODY.has(request.method)) assertBodyType(request, bodyTypesOf(declaration));
}

/** The signed-in caller of a route that is not public (401 otherwise); null for public routes. */
async function resolveCaller(call: RouteCall<RouteRoot>, access: RouteAccess): Promise<SignedInUser | null> {
  if (access.kind === "public" || access.kind === "refusal") return null;
  const found = await call.identity();
  // A signed-in caller past their refusals' limit is throttled before anything else is done for them.
  if (found.user) (await call.services()).userRefusals.admit(found.user.id);
  if (found.refusal && found.user) {
    // A known caller refused by identity (suspended; a proxy session an admin ended): audited as theirs.
    call.annotations.user = found.user.id;
    throw found.refusal;
  }
  // An anonymous caller past its refusals' limit is throttled before anything else is done for it.
  if (!found.user) (await call.services()).anonymousRefusals.admit(call.client);
  const user = requireUser(found.user, found.session.endReason);
  call.annotations.user = user.id;
  return user;
}

/**
 * A public route open to floods: an address past its refusals' limit is refused (429) up front. The caller is
 * not looked up: with AUTH_MODE=none that would start a session for every request of the flood.
 */
async function throttleAddress(call: RouteCall<RouteRoot>): Promise<void> {
  // Without storage there is nothing to count with: the route still answers.
  const ready = await call.services().catch(() => null);
  ready?.anonymousRefusals.admit(call.client);
}

/** A 404 of a route throttled by address, counted like an anonymous caller's refusal. */
async function countByAddress(call: RouteCall<RouteRoot>, error: ApiError): Promise<void> {
  const ready = await call.services().catch(() => null);
  ready?.anonymousRefusals.count(call.client, error.code, `${call.request.method} ${call.path}`);
}

async function checkAccess(
  call: RouteCall<RouteRoot>,
  access: RouteAccess,
  user: SignedInUser,
): Promise<void> {
  switch (access.kind) {
    case "public":
    case "refusal":
      return;
    case "signed_in":
      requireSomeRole(user);
      return;
    case "environment": {
      const where = await call.environment();
      for (const action of access.actions) assertAllowed(user.roles, action, where);
      return;
    }
    case "somewhere": {
      const somewhere = call.config.environments.some(({ name }) => can(user.roles, access.action, name));
      if (!somewhere) assertAllowed(user.roles, access.action, await call.environment());
      return;
    }
    case "global":
      for (const action of access.actions) assertAllowed(user.roles, action);
      return;
  }
}

async function spendRateLimit(call: RouteCall<RouteRoot>, user: SignedInUser): Promise<void> {
  const { rateLimiter } = await call.services();
  try {
    await spendUpstreamCall(rateLimiter, user.id, call.config.rateLimitPerMinute);
  } catch (error) {
    // 429 as it is; a database failure is 503.
    throw storageFailure(error);
  }
}

function routeContext<R extends RouteRoot>(call: RouteCall<R>): RouteContext<R> {
  return {
    request: call.request,
    root: call.root,
    config: call.config,
    session: async () => (await call.identity()).session,
    identity: () => call.identity(),
    user: async () => {
      const found = await call.identity();
      return requireUser(found.user, found.session.endReason);
    },
    environment: () => call.environment(),
    services: () => call.services(),
    body: async () => declaredBody(call.declaration, await call.readBody()) as never,
    query: () => declaredQuery(call.declaration, new URL(call.request.url)) as never,
    params: () =>
      declaredParams(call.declaration, call.declaration.template, new URL(call.request.url)) as never,
    annotate: (fields) => {
      call.annotations = { ...call.annotations, ...fields };
    },
    audit: (fields) => call.audit(fields),
    // Its result's row, or a failure row for an ApiError (then not audited again as a refusal). Written here,
    // not in a helper, so that a proxied call passes one frame fewer on its way to the upstream.
    audited: async (fields, run, describe) => {
      let result;
      try {
        result = await run();
      } catch (error) {
        if (error instanceof ApiError) {
          await call.audit({ ...fields, outcome: "failure", reason: error.code });
          auditedErrors.add(error);
        }
        throw error;
      }
      await call.audit({ ...fields, ...describe(result) });
      return result;
    },
  };
}

/**
 * A refusal's audit row. A signed-in caller's first refusal on a route in a minute is its own row, the rest of
 * that minute one summary row with their count; an anonymous caller's is only counted, and summarised per address
 * and minute (no database write per request of a flood).
 */
async function auditRefusal(call: RouteCall<RouteRoot>, error: ApiError): Promise<void> {
  const operation = `${call.request.method} ${call.path}`;
  const user = await call.knownUser();
  const ready = await call.services().catch(() => null);
  if (!user) {
    ready?.anonymousRefusals.count(call.client, error.code, operation);
    if (ready) return;
  }
  const environment = (await namedEnvironment(call.request, call.bodyText ?? null)) ?? call.actedOn ?? null;
  if (user && ready) {
    const route = `${call.request.method} ${call.declaration.template}`;
    const first = ready.userRefusals.note(auditCaller(user, call.client), route, error.code, environment);
    if (!first) return;
  }
  await call
    .audit({
      event: "refused",
      outcome: "failure",
      reason: error.code,
      operation: operation.slice(0, 64),
      environment,
    })
    .catch(() => {
      // Logged by the audit path; the refusal stands.
    });
}

function errorResponse(call: RouteCall<RouteRoot>, error: unknown): Response {
  call.errorCode = error instanceof ApiError ? error.code : "internal_error";
  if (error instanceof ApiError) return error.toResponse();
  logger.error(
    {
      method: call.request.method,
      path: call.path,
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : String(error),
    },
    "unexpected error in a route handler",
  );
  return internalError().toResponse();
}

/** The response to a throw before or in the handler, with the refusal's audit row. */
async function refused(call: RouteCall<RouteRoot>, error: unknown, options: RouteOptions): Promise<Response> {
  const response = errorResponse(call, error);
  if (!(error instanceof ApiError)) return response;
  if (error.status >= 500) call.annotations = { ...call.annotations, error: error.message };
  if (AUDITED_REFUSALS.has(error.status) && !auditedErrors.has(error)) await auditRefusal(call, error);
  else if (error.status === 404 && options.throttleByAddress) await countByAddress(call, error);
  return response;
}

/** This request found the session idle or past its lifetime (one instance sees that, once): audited. */
async function endSessionIfOver(call: RouteCall<RouteRoot>, found: RequestIdentity): Promise<void> {
  const endedNow = found.session.endedNow;
  if (!endedNow) return;
  await call
    .audit({ event: "session_end", outcome: "success", userId: endedNow.userId, reason: endedNow.reason })
    .catch(() => {});
}

/** The session's end, then its cookie written back when it changed. */
async function commitCookie(call: RouteCall<RouteRoot>, response: Response): Promise<Response> {
  if (!call.identityPromise) return response;
  try {
    const found = await call.identityPromise.catch(() => null);
    if (!found) return response;
    await endSessionIfOver(call, found);
    return await found.session.commit(response, call.client);
  } catch (error) {
    return errorResponse(call, error);
  }
}

/** `Cache-Control`, the metrics and the call's one log line. */
function finish(call: RouteCall<RouteRoot>, response: Response, options: RouteOptions): Response {
  const { request, root, errorCode } = call;
  response.headers.set("Cache-Control", "no-store");
  root.metrics.requests.inc({
    route: routeLabel(call.declaration.template),
    method: methodLabel(request.method),
    status: statusLabel(response.status),
  });
  if (errorCode === "rate_limited") root.metrics.rateLimitRefusals.inc();
  const fields = {
    method: request.method,
    path: call.path,
    status: response.status,
    duration_ms: Math.round((performance.now() - call.started) * 10) / 10,
    client: call.client,
    ...(errorCode ? { code: errorCode } : {}),
    ...call.annotations,
  };
  if (options.quiet && !errorCode) logger.debug(fields, "api call");
  else logger.info(fields, "api call");
  return response;
}

export async function runRoute<R extends RouteRoot>(
  root: R,
  request: Request,
  declaration: DeclaredMethod,
  handler: (context: RouteContext<R>) => Promise<Response>,
): Promise<Response> {
  const call = new RouteCall(root, request, declaration);
  const { access, options = {} } = declaration;
  let response: Response;
  try {
    checkGuards(call);
    if (options.throttleByAddress) await throttleAddress(call);
    const user = await resolveCaller(call, access);
    if (user) await checkAccess(call, access, user);
    if (user && options.upstream) await spendRateLimit(call, user);
    response = await handler(routeContext(call));
  } catch (error) {
    response = await refused(call, error, options);
  }
  return finish(call, await commitCookie(call, response), options);
}
