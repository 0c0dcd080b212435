/**
 * The catalogue's entries for what serves tools rather than pages: health, readiness, metrics, the generated
 * documents and collections, the starter clients, and the catch-all that answers every other /api path.
 */
import { z } from "zod";
import { environmentNameSchema } from "@/lib/shared/contracts";
import { PUBLIC, allowSomewhere } from "@/lib/server/http/access";
import { ROUTE_METHODS, type RouteDeclaration, type RouteMethod } from "@/lib/server/http/declaration";
import { errorBodySchema, healthSchema, readySchema, starterClientListSchema } from "./console-schemas";

const postmanQuery = z.object({ environment: environmentNameSchema });
const POSTMAN_ERRORS = {
  bad_request: "`environment` is missing or not an environment name.",
  environment_unavailable: "The environment is not configured.",
  forbidden_by_role: "The role may not copy calls as code in that environment.",
} as const;

const notFound = {
  operationId: "notFound",
  summary: "Any other /api path: 404 in the one error shape",
  access: PUBLIC,
  answers: {},
  errors: { not_found: "No console API at this path." },
  options: { throttleByAddress: true },
} as const satisfies RouteDeclaration;

/** The catch-all serves every method alike (and is left out of the document: it names no operation). */
const everyMethod = Object.fromEntries(ROUTE_METHODS.map((method) => [method, notFound])) as Record<
  RouteMethod,
  typeof notFound
>;

export const CATCH_ALL = "/api/[...path]";

export const platformRoutes = {
  [CATCH_ALL]: everyMethod,
  "/api/health": {
    GET: {
      operationId: "health",
      summary: "Liveness: the process answers",
      access: PUBLIC,
      answers: { 200: { description: "Alive.", schema: healthSchema } },
      options: { quiet: true },
    },
  },
  "/api/ready": {
    GET: {
      operationId: "ready",
      summary: "Readiness: configuration fits, database reachable and migrated",
      access: PUBLIC,
      answers: {
        200: { description: "Ready to serve.", schema: readySchema },
        503: {
          description: "Not ready: `not_ready`, every reason in details.reasons.",
          schema: errorBodySchema,
        },
      },
      options: { quiet: true },
    },
  },
  "/api/metrics": {
    GET: {
      operationId: "metrics",
      summary: "Prometheus metrics (text format 0.0.4)",
      description:
        "`Authorization: Bearer $METRICS_TOKEN`, or a signed-in admin (declared public: a scraper has no session; the handler checks the token, else the admin role).",
      access: PUBLIC,
      security: ["metricsToken", "sessionCookie"],
      answers: { 200: { description: "The series.", media: "text/plain" } },
      errors: {
        not_signed_in: "No token and no session.",
        forbidden_by_role: "Signed in, but not an admin.",
        storage_unavailable: "The console's database did not answer.",
      },
      options: { quiet: true },
    },
  },
  "/api/openapi.json": {
    GET: {
      operationId: "openApiDocument",
      summary: "This document",
      description:
        "API clients (Postman, Insomnia, Bruno) import it by URL without a session; it holds no secret.",
      access: PUBLIC,
      answers: { 200: { description: "OpenAPI 3.1." } },
      options: { quiet: true },
    },
  },
  "/api/postman-collection.json": {
    GET: {
      operationId: "postmanCollection",
      summary: "The Card Services API as a Postman v2.1 collection for one environment",
      description:
        "Variables authUrl and baseUrl (the environment's addresses), client_id and client_secret (empty), a " +
        "token script, one request per operation with the specification's promises as tests.",
      access: allowSomewhere("copy_as_code"),
      query: postmanQuery,
      parameters: { environment: { description: "The environment it calls.", example: "embedded" } },
      answers: {
        200: {
          description: "Postman collection v2.1.",
          headers: { "Content-Disposition": "An attachment." },
        },
      },
      errors: POSTMAN_ERRORS,
    },
  },
  "/api/postman-environment.json": {
    GET: {
      operationId: "postmanEnvironment",
      summary: "A Postman environment for one environment, to import beside the collection",
      description:
        "Values authUrl and baseUrl (the environment's addresses), client_id and client_secret (empty; the " +
        "secret typed `secret`).",
      access: allowSomewhere("copy_as_code"),
      query: postmanQuery,
      parameters: { environment: { description: "The environment it calls.", example: "embedded" } },
      answers: {
        200: { description: "Postman environment.", headers: { "Content-Disposition": "An attachment." } },
      },
      errors: POSTMAN_ERRORS,
    },
  },
  "/api/starter-clients": {
    GET: {
      operationId: "starterClients",
      summary: "The starter clients: one small program per language that does every duty of a client",
      description:
        "Public, like the documents: an integrator's CI fetches them without a session. `run` is how the client's README runs one command.",
      access: PUBLIC,
      answers: { 200: { description: "The catalogue.", schema: starterClientListSchema } },
      options: { quiet: true },
    },
  },
  "/api/starter-clients/[file]": {
    GET: {
      operationId: "starterClientZip",
      summary: "One starter client as a zip: its source, README.md and .env.example",
      description: "Public, like the documents.",
      access: PUBLIC,
      params: z.object({ file: z.string().regex(/^[a-z]{1,32}\.zip$/) }),
      parameters: {
        file: {
          description: "`{language}.zip`, a language of GET /api/starter-clients.",
          example: "node.zip",
        },
      },
      answers: {
        200: {
          description: "The zip, as an attachment.",
          media: "application/zip",
          headers: { "Content-Disposition": "An attachment." },
        },
      },
      errors: { not_found: "No starter client for that language in this build." },
      options: { quiet: true },
    },
  },
} as const satisfies Record<string, Record<string, RouteDeclaration>>;
