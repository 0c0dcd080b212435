/**
 * What a console API route method is, declared once in the route catalogue (lib/server/routes): its
 * summary, input schemas, answers, access and the error codes its handler can throw. The wrapper enforces the
 * access and options and reads the input through the declared schemas (`context.body()`, `query()`, `params()`),
 * and the OpenAPI document is generated from the same value, so neither can drift from what the route does.
 */
import type { z } from "zod";
import type { ErrorCode } from "@/lib/server/util/errors";
import type { RouteAccess } from "./access";
import type { BodyMediaType } from "./guards";

export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/** A JSON body the wrapper validates before the handler sees it. */
interface BodyDeclaration<S extends z.ZodType = z.ZodType> {
  schema: S;
  /** A body a client can send as it stands (the sandbox's demo data). */
  example: unknown;
  /** false: an empty body is accepted too (`context.body()` is then undefined). */
  required?: boolean;
  /** For a union: the option a raw object is meant as, so that field errors name that option's fields. */
  formOf?: (raw: Record<string, unknown>) => z.ZodType;
  /** A further media type the handler reads itself (a CSV upload), documented beside JSON. */
  alternative?: { media: Exclude<BodyMediaType, "application/json">; example: string };
}

/** A body the handler reads itself as bytes (an evidence zip). */
interface UploadDeclaration {
  media: Exclude<BodyMediaType, "application/json">;
  description: string;
}

type AnswerMedia = "application/json" | "text/csv" | "application/zip" | "text/plain";

export interface AnswerDeclaration {
  description: string;
  /** The JSON answer's schema; none for a body the document does not describe (a Postman file). */
  schema?: z.ZodType;
  media?: AnswerMedia;
  /** Response headers worth naming, with what they hold. */
  headers?: Record<string, string>;
}

/** Notes on a path or query parameter beyond its schema. */
interface ParameterNote {
  description?: string;
  example?: unknown;
}

export interface RouteOptions {
  /** Log at debug instead of info (the health check). */
  quiet?: boolean;
  /** The call reaches the upstream: the per-user rate limit applies (RATE_LIMIT_PER_MINUTE). */
  upstream?: boolean;
  /**
   * A 404 counts as a refusal of the caller's address, as an anonymous caller's refusals do
   * (audit/anonymous-refusals), and past the address's limit the call is answered 429 before the handler: the
   * catch-all, which anyone can reach with endless paths. No session is looked up for such a call.
   */
  throttleByAddress?: boolean;
}

export interface RouteDeclaration {
  /** The OpenAPI operationId (what a generated client names the call). */
  operationId: string;
  summary: string;
  description?: string;
  access: RouteAccess;
  body?: BodyDeclaration;
  upload?: UploadDeclaration;
  query?: z.ZodObject;
  /** The path's `[name]` segments; a segment without an entry is any non-empty text. */
  params?: z.ZodObject;
  parameters?: Record<string, ParameterNote>;
  /** The answers by success status (2xx, 3xx), and the readiness check's 503. */
  answers: Record<number, AnswerDeclaration>;
  /** The codes the handler (or what it calls) can throw, with when; the wrapper's own are derived. */
  errors?: Partial<Record<ErrorCode, string>>;
  options?: RouteOptions;
  /** Who may call it when that is not a session (GET /api/metrics: a bearer token or an admin). */
  security?: readonly ("metricsToken" | "sessionCookie")[];
}

/** A declaration as the catalogue holds it: stamped with where it is served. */
export type DeclaredMethod<D extends RouteDeclaration = RouteDeclaration> = D & {
  readonly template: string;
  readonly method: RouteMethod;
};

export type DeclaredRoute = { readonly template: string } & {
  readonly [M in RouteMethod]?: DeclaredMethod;
};

type Stamped<T extends string, R> = { readonly template: T } & {
  readonly [M in keyof R]: R[M] & { readonly template: T; readonly method: M };
};

/** The catalogue: each route template's methods, stamped with their template and method. */
export function declareRoutes<const C extends Record<string, Partial<Record<RouteMethod, RouteDeclaration>>>>(
  catalogue: C,
): { readonly [T in keyof C & string]: Stamped<T, C[T]> } {
  const stamped: Record<string, DeclaredRoute> = {};
  for (const [template, methods] of Object.entries(catalogue)) {
    const route: Record<string, unknown> = { template };
    for (const [method, declaration] of Object.entries(methods)) {
      route[method] = { ...declaration, template, method };
    }
    stamped[template] = route as DeclaredRoute;
  }
  return stamped as { readonly [T in keyof C & string]: Stamped<T, C[T]> };
}

/** The media types a route's body may have, from its declaration. */
export function bodyTypesOf(declaration: RouteDeclaration): readonly BodyMediaType[] {
  if (declaration.upload) return [declaration.upload.media];
  const alternative = declaration.body?.alternative;
  return alternative ? ["application/json", alternative.media] : ["application/json"];
}

/** The parsed JSON body a declaration names (undefined when it allows an empty one). */
export type BodyOf<D> = D extends { body: { schema: infer S extends z.ZodType; required: false } }
  ? z.output<S> | undefined
  : D extends { body: { schema: infer S extends z.ZodType } }
    ? z.output<S>
    : never;

export type QueryOf<D> = D extends { query: infer Q extends z.ZodType } ? z.output<Q> : never;

/** The path parameters: the declared schema's output, else each `[name]` as text. */
export type ParamsOf<D> = D extends { params: infer P extends z.ZodType }
  ? z.output<P>
  : Record<string, string>;

/**
 * What a handler may answer, from the declaration: for each declared status with a JSON schema, that status and
 * the body the schema accepts (never when no answer declares a schema: the handler's answer is then unchecked).
 */
export type AnswerOf<D> = D extends { answers: infer A }
  ? {
      [S in keyof A & number]: A[S] extends { schema: infer Z extends z.ZodType }
        ? { status: S; body: z.input<Z> }
        : never;
    }[keyof A & number]
  : never;
