/**
 * The wrapper of every console API route handler: guards (Host, Origin, content type, body size), the caller's
 * identity and the access the route declares (401 `not_signed_in`, 403 `forbidden_by_role`), the per-user rate
 * limit of calls that reach the upstream (429 `rate_limited`), one error shape, `Cache-Control: no-store`, the
 * session cookie written back only when it changed, an audit row for a signed-in caller's first refusal
 * (401/403/409/429) per route and minute and one summary row of the rest (audit/user-refusals), an anonymous
 * caller's summarised per address and minute (audit/anonymous-refusals), both throttled past a limit,
 * and one log line per call. An unexpected throw becomes a logged 500 in the same shape.
 *
 * The wrapper is bound to a root (`createRouteKit`): lib/server/root binds it to the process's, and route files
 * import the bound `apiRoute` from there. Each request runs the steps of ./route-steps in order.
 */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { AnonymousRefusals } from "@/lib/server/audit/anonymous-refusals";
import type { UserRefusals } from "@/lib/server/audit/user-refusals";
import type { AuditFields, AuditSink } from "@/lib/server/audit/record";
import type { ServerConfig } from "@/lib/server/config";
import type { SignedInUser } from "@/lib/server/identity/me";
import type { IdentityDeps, RequestIdentity } from "@/lib/server/identity/request-identity";
import { can, ENVIRONMENT_ACTIONS } from "@/lib/server/identity/roles";
import type { ConsoleMetrics } from "@/lib/server/metrics";
import type { Session } from "@/lib/server/session";
import type { AnswerOf, BodyOf, DeclaredMethod, ParamsOf, QueryOf, RouteDeclaration } from "./declaration";
import type { RateLimiter } from "./rate-limit";
import { declare, type RouteHandler } from "./route-methods";
import { runRoute } from "./route-steps";

export { defineRoute, type RouteExports } from "./route-methods";
/** What the wrapper needs of the storage-backed services. */
export interface RouteServices {
  auditLog: AuditSink;
  anonymousRefusals: AnonymousRefusals;
  /** Refusals of signed-in callers: one row per user, route and minute past the first, throttled past a limit. */
  userRefusals: UserRefusals;
  rateLimiter: RateLimiter;
}

/** What the wrapper needs of the composition root. */
export interface RouteRoot {
  config: ServerConfig;
  metrics: ConsoleMetrics;
  services(): Promise<RouteServices>;
  identity(): Promise<IdentityDeps>;
}

export type ServicesOf<R extends RouteRoot> = Awaited<ReturnType<R["services"]>>;

export interface RouteContext<
  R extends RouteRoot = RouteRoot,
  D extends RouteDeclaration = RouteDeclaration,
> {
  request: Request;
  /** The composition root the route was bound to: configuration, services, upstream clients. */
  root: R;
  config: ServerConfig;
  /** The session, read on first use; written back after the handler when it changed. */
  session(): Promise<Session>;
  /** The caller and their session (resolved before the handler on every route that is not public). */
  identity(): Promise<RequestIdentity>;
  /** The signed-in caller; 401 `not_signed_in` when there is none. */
  user(): Promise<SignedInUser>;
  /** The environment the call acts on: the session's. */
  environment(): Promise<EnvironmentName>;
  services(): Promise<ServicesOf<R>>;
  /** The JSON body validated with the declared schema (400 with field details otherwise). */
  body(): Promise<BodyOf<D>>;
  /** The query validated with the declared schema (an empty parameter as absent). */
  query(): QueryOf<D>;
  /** The path's `[name]` segments, decoded, validated with the declared schema when there is one. */
  params(): ParamsOf<D>;
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

/** Marks a Response made by `json` with its status and body, in types only (nothing is added at run time). */
declare const ANSWER: unique symbol;

/** A JSON answer: a Response whose type says its status and body. */
export interface JsonAnswer<T, S extends number = number> extends Response {
  readonly [ANSWER]?: { status: S; body: T };
}

/**
 * What a handler of `D` may return: a `json` answer must be one of the declared answers with a schema, its body
 * what that schema accepts. Any other Response (a redirect, a CSV, a stream) carries no mark and passes, as does
 * every answer of a route that declares no answer schema.
 */
type DeclaredResponse<D> = [AnswerOf<D>] extends [never]
  ? Response
  : Response & { readonly [ANSWER]?: AnswerOf<D> };

/** A route method's handler, made from its catalogue declaration (lib/server/routes). */
export type ApiRoute<R extends RouteRoot> = <D extends DeclaredMethod>(
  declaration: D,
  handler: (context: RouteContext<R, D>) => Promise<DeclaredResponse<D>>,
) => RouteHandler;

/** `apiRoute` bound to the root `root()` returns when a request arrives. */
export function createRouteKit<R extends RouteRoot>(root: () => R): { apiRoute: ApiRoute<R> } {
  return {
    apiRoute: (declaration, handler) =>
      declare(declaration, (request) =>
        runRoute(root(), request, declaration, handler as (context: RouteContext<R>) => Promise<Response>),
      ),
  };
}

/** `T` with `readonly` taken off at every depth: a literal `[]` in a body may stand for a declared array. */
type Writable<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { -readonly [K in keyof T]: Writable<T[K]> }
    : T;

/**
 * A JSON answer, 200 unless `status` says otherwise; both are checked against the route's declared answers. The
 * body is inferred as written (`const`), so that a literal such as `"ready"` meets a declared literal.
 */
export function json<const T>(body: T): JsonAnswer<Writable<T>, 200>;
export function json<const T, S extends number>(
  body: T,
  status: S,
  headers?: HeadersInit,
): JsonAnswer<Writable<T>, S>;
export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

/** Whether `user` may do anything at all in `environment` (e.g. to switch to it). */
export function canActIn(user: SignedInUser, environment: EnvironmentName): boolean {
  return ENVIRONMENT_ACTIONS.some((action) => can(user.roles, action, environment));
}
