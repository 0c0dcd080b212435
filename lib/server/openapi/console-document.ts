/**
 * The OpenAPI 3.1 document of the console's HTTP interface (docs/design.md §4), served at GET /api/openapi.json and
 * generated from the route catalogue (lib/server/routes): each route method's summary, parameters and body (the
 * schemas the wrapper validates with), answers, access (with the roles the role table gives it) and errors (the
 * ones it declares and the ones the wrapper derives from its access and options), in the one error shape.
 */
import { z } from "zod";
import type { ErrorCode } from "@/lib/server/util/errors";
import { errorStatus } from "@/lib/server/util/errors";
import type { AnswerDeclaration, DeclaredMethod, DeclaredRoute } from "@/lib/server/http/declaration";
import { mergeErrors, wrapperErrors } from "@/lib/server/http/wrapper-errors";
import { componentRef, jsonSchema, type JsonSchema } from "@/lib/shared/json-schema";
import { accessRoles, accessText } from "./access-text";
import { CATCH_ALL, ROUTES } from "@/lib/server/routes";
import { componentSchemas, schemaOf } from "./components";

/** `/api/runs/[id]` → `/api/runs/{id}`. */
export function documentPath(template: string): string {
  return template.replace(/\[(\w+)\]/g, "{$1}");
}

function pathParameters(declaration: DeclaredMethod): JsonSchema[] {
  const names = [...declaration.template.matchAll(/\[(\w+)\]/g)].map((match) => match[1]!);
  const shape = (declaration.params?.shape ?? {}) as Record<string, z.ZodType>;
  return names.map((name) => ({
    name,
    in: "path",
    required: true,
    ...declaration.parameters?.[name],
    schema: shape[name] ? jsonSchema(shape[name], "input") : { type: "string" },
  }));
}

function queryParameters(declaration: DeclaredMethod): JsonSchema[] {
  const shape = (declaration.query?.shape ?? {}) as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, schema]) => ({
    name,
    in: "query",
    required: !schema.safeParse(undefined).success,
    ...declaration.parameters?.[name],
    schema: jsonSchema(schema, "input"),
  }));
}

function requestBody(declaration: DeclaredMethod): JsonSchema | undefined {
  const { body, upload } = declaration;
  if (upload) {
    const schema = { type: "string", contentMediaType: upload.media };
    return { required: true, description: upload.description, content: { [upload.media]: { schema } } };
  }
  if (!body) return undefined;
  const content: JsonSchema = {
    "application/json": { schema: schemaOf(body.schema, "input"), example: body.example },
  };
  if (body.alternative)
    content[body.alternative.media] = { schema: { type: "string" }, example: body.alternative.example };
  return {
    required: body.required !== false,
    ...(body.required === false ? { description: "Empty, or `{}` (still sent as application/json)." } : {}),
    content,
  };
}

function answer({ description, schema, media = "application/json", headers }: AnswerDeclaration): JsonSchema {
  const bodySchema =
    schema !== undefined
      ? schemaOf(schema, "output")
      : media === "application/zip"
        ? { type: "string", contentMediaType: media }
        : media === "application/json"
          ? undefined
          : { type: "string" };
  return {
    description,
    ...(headers
      ? {
          headers: Object.fromEntries(
            Object.entries(headers).map(([name, about]) => [
              name,
              { description: about, schema: { type: "string" } },
            ]),
          ),
        }
      : {}),
    content: { [media]: bodySchema ? { schema: bodySchema } : {} },
  };
}

/** The error answers by status: each lists its codes and when, in the one error shape. */
function errorAnswers(declaration: DeclaredMethod): Record<string, JsonSchema> {
  const errors = mergeErrors(wrapperErrors(declaration), declaration.errors ?? {});
  const byStatus = new Map<number, [ErrorCode, string][]>();
  for (const [code, when] of Object.entries(errors) as [ErrorCode, string][]) {
    const status = errorStatus(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, when]]);
  }
  const answers: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    answers[String(status)] = {
      description: codes.map(([code, when]) => `\`${code}\`: ${when}`).join(" "),
      "x-error-codes": codes.map(([code]) => code),
      content: { "application/json": { schema: componentRef("ErrorBody") } },
    };
  }
  return answers;
}

function operation(declaration: DeclaredMethod): JsonSchema {
  const { access, summary, description } = declaration;
  const parameters = [...pathParameters(declaration), ...queryParameters(declaration)];
  const body = requestBody(declaration);
  const security = declaration.security
    ? declaration.security.map((scheme) => ({ [scheme]: [] }))
    : access.kind === "public"
      ? []
      : [{ sessionCookie: [] }];
  return {
    operationId: declaration.operationId,
    summary,
    description: [description, accessText(access)].filter(Boolean).join(" "),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    security,
    "x-console-access": access,
    "x-console-roles": accessRoles(access),
    responses: {
      ...Object.fromEntries(
        Object.entries(declaration.answers).map(([status, about]) => [status, answer(about)]),
      ),
      ...errorAnswers(declaration),
    },
  };
}

function paths(): Record<string, Record<string, JsonSchema>> {
  const documented = Object.values(ROUTES as Record<string, DeclaredRoute>).filter(
    ({ template }) => template !== CATCH_ALL,
  );
  return Object.fromEntries(
    documented.map((route) => [
      documentPath(route.template),
      Object.fromEntries(
        (["GET", "POST", "PUT", "PATCH", "DELETE"] as const)
          .filter((method) => route[method])
          .map((method) => [method.toLowerCase(), operation(route[method]!)]),
      ),
    ]),
  );
}

/** The document, served from `origin` (absolute, so that a client importing it by URL knows where to call). */
export function consoleOpenApiDocument(origin: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Card Services Console",
      version: "1",
      description:
        "The console's own HTTP interface. Calls carry the session cookie; mutating calls need " +
        "`Content-Type: application/json` and a same-origin `Origin`. Errors: " +
        '`{"error": {"code", "message", "details"?}}`. A method a path does not serve answers 405 ' +
        "`method_not_allowed` with Allow; any other /api path 404 `not_found`.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: origin, description: "This console" }],
    security: [{ sessionCookie: [] }],
    paths: paths(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        metricsToken: {
          type: "http",
          scheme: "bearer",
          description: "METRICS_TOKEN (GET /api/metrics only).",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "csc_session",
          description: "`__Host-csc_session` when PUBLIC_URL is https.",
        },
      },
    },
  };
}
