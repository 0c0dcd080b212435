/**
 * The OpenAPI 3.1 document of the console's HTTP interface (DESIGN.md §4), served at GET /api/openapi.json.
 * Request bodies and parameters come from the zod schemas the routes validate with (lib/api/contracts.ts),
 * responses from lib/openapi/console-schemas.ts and lib/auth/me.ts.
 */
import { z } from "zod";
import {
  balanceInquiryInputSchema,
  credentialsInputSchema,
  environmentInputSchema,
  giftBalanceInquiryInputSchema,
  transactionLookupParamsSchema,
} from "@/lib/api/contracts";
import { meResponseSchema } from "@/lib/auth/me";
import {
  auditFilterQuerySchema,
  auditPageSchema,
  auditVerifySchema,
  errorBodySchema,
  exchangeRecordSchema,
  healthSchema,
  logoutResultSchema,
  readySchema,
  sessionInfoSchema,
  tokenResultSchema,
} from "./console-schemas";
import { componentRef, jsonContent, jsonSchema, type JsonSchema } from "./json-schema";

const COMPONENTS = {
  ErrorBody: jsonSchema(errorBodySchema, "output"),
  SessionInfo: jsonSchema(sessionInfoSchema, "output"),
  ExchangeRecord: jsonSchema(exchangeRecordSchema, "output"),
  TokenResult: jsonSchema(tokenResultSchema, "output"),
  Health: jsonSchema(healthSchema, "output"),
  Ready: jsonSchema(readySchema, "output"),
  Me: jsonSchema(meResponseSchema, "output"),
  LogoutResult: jsonSchema(logoutResultSchema, "output"),
  AuditPage: jsonSchema(auditPageSchema, "output"),
  AuditVerify: jsonSchema(auditVerifySchema, "output"),
  CredentialsInput: jsonSchema(credentialsInputSchema, "input"),
  EnvironmentInput: jsonSchema(environmentInputSchema, "input"),
  BalanceInquiryInput: jsonSchema(balanceInquiryInputSchema, "input"),
  GiftBalanceInquiryInput: jsonSchema(giftBalanceInquiryInputSchema, "input"),
} satisfies Record<string, JsonSchema>;

type ComponentName = keyof typeof COMPONENTS;

const ok = (description: string, name: ComponentName) => ({
  description,
  content: jsonContent(componentRef(name)),
});

const error = (description: string) => ({ description, content: jsonContent(componentRef("ErrorBody")) });

/** Every operation may answer in the error shape (bad input 4xx, upstream unreachable 502/504, …). */
const ERRORS = {
  "400": error("Invalid input (`validation_failed`, `invalid_json`), with per-field messages in details."),
  "401": error("No usable credentials or token (`no_credentials`), or not signed in (`not_signed_in`)."),
  "403": error("Cross-origin call, or the user's roles do not allow it (`forbidden_by_role`)."),
  default: error("Any other error, in the one error shape."),
};

const UPSTREAM_ERRORS = {
  "409": error("The session's environment changed since the page was shown (`environment_changed`)."),
  "502": error("The upstream could not be reached (connection refused, TLS failure)."),
  "504": error("The upstream did not answer in time."),
};

const jsonBody = (name: ComponentName) => ({ required: true, content: jsonContent(componentRef(name)) });

const environmentQuery = {
  name: "environment",
  in: "query",
  required: false,
  description: "The environment the page showed; refused with 409 when the session's has changed since.",
  schema: jsonSchema(transactionLookupParamsSchema.shape.environment, "input"),
};

const auditQueryParameters = Object.entries(
  jsonSchema(auditFilterQuerySchema, "input").properties as Record<string, JsonSchema>,
).map(([name, schema]) => ({ name, in: "query", required: false, schema }));

interface Operation {
  operationId: string;
  summary: string;
  parameters?: unknown[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, unknown>;
}

const PATHS = {
  "/api/session": {
    get: {
      operationId: "getSession",
      summary: "Environment, credential source and client_id, token metadata",
      responses: { "200": ok("The session.", "SessionInfo"), ...ERRORS },
    },
    delete: {
      operationId: "deleteSession",
      summary: "Forget credentials and token (and end a signed-in session)",
      responses: { "200": ok("The emptied session.", "SessionInfo"), ...ERRORS },
    },
  },
  "/api/session/credentials": {
    put: {
      operationId: "putCredentials",
      summary: "Keep client credentials (or the sandbox's demo profile) in the session; never echoed",
      requestBody: jsonBody("CredentialsInput"),
      responses: { "200": ok("The session, without the secret.", "SessionInfo"), ...ERRORS },
    },
  },
  "/api/session/environment": {
    put: {
      operationId: "putEnvironment",
      summary: "Choose a configured environment",
      requestBody: jsonBody("EnvironmentInput"),
      responses: { "200": ok("The session.", "SessionInfo"), ...ERRORS },
    },
  },
  "/api/token": {
    post: {
      operationId: "requestToken",
      summary: "Request a new token now: its metadata (never the token) and the exchange record",
      requestBody: {
        required: false,
        description: "Empty, or `{}` (still sent as application/json).",
        content: jsonContent(jsonSchema(z.object({}).strict(), "input")),
      },
      responses: { "200": ok("The upstream answered.", "TokenResult"), ...ERRORS, ...UPSTREAM_ERRORS },
    },
  },
  "/api/inquiries/gift-balance": {
    post: {
      operationId: "giftBalanceInquiry",
      summary: "Gift Balance Inquiry (records a transaction upstream)",
      requestBody: jsonBody("GiftBalanceInquiryInput"),
      responses: {
        "200": ok("The upstream answered, whatever its status: the exchange record.", "ExchangeRecord"),
        ...ERRORS,
        ...UPSTREAM_ERRORS,
      },
    },
  },
  "/api/inquiries/balance": {
    post: {
      operationId: "balanceInquiry",
      summary: "Balance Inquiry (read-only, every purse)",
      requestBody: jsonBody("BalanceInquiryInput"),
      responses: {
        "200": ok("The upstream answered, whatever its status: the exchange record.", "ExchangeRecord"),
        ...ERRORS,
        ...UPSTREAM_ERRORS,
      },
    },
  },
  "/api/transactions/request-id/{id}": {
    get: {
      operationId: "lookupTransaction",
      summary: "Lookup Transaction by Request Id",
      parameters: [
        {
          name: "id",
          in: "path",
          required: true,
          description: "The X-Request-Id a Gift Balance Inquiry was sent with.",
          schema: jsonSchema(transactionLookupParamsSchema.shape.id, "input"),
        },
        environmentQuery,
      ],
      responses: {
        "200": ok("The upstream answered (a 404 upstream included): the exchange record.", "ExchangeRecord"),
        ...ERRORS,
        ...UPSTREAM_ERRORS,
      },
    },
  },
  "/api/me": {
    get: {
      operationId: "getMe",
      summary: 'The signed-in user and what their roles allow; `{"user": null}` when signed out',
      responses: { "200": ok("The user, or null.", "Me"), default: ERRORS.default },
    },
  },
  "/api/auth/login": {
    get: {
      operationId: "signIn",
      summary: "AUTH_MODE=oidc: redirect to the identity provider",
      parameters: [{ name: "return_to", in: "query", required: false, schema: { type: "string" } }],
      responses: { "302": { description: "To the identity provider." }, "404": error("Not in oidc mode.") },
    },
  },
  "/api/auth/callback": {
    get: {
      operationId: "signInCallback",
      summary: "AUTH_MODE=oidc: the provider's redirect back; starts the session",
      responses: { "302": { description: "To the page signed in from, or to /signed-out?error=<code>." } },
    },
  },
  "/api/auth/logout": {
    post: {
      operationId: "signOut",
      summary: "End the session on every instance",
      responses: { "200": ok("Signed out.", "LogoutResult"), ...ERRORS },
    },
  },
  "/api/audit": {
    get: {
      operationId: "readAuditLog",
      summary: "Admin: the audit log, newest first, with filters and a cursor",
      parameters: auditQueryParameters,
      responses: { "200": ok("One page of rows.", "AuditPage"), ...ERRORS },
    },
  },
  "/api/audit/verify": {
    get: {
      operationId: "verifyAuditLog",
      summary: "Admin: check the audit log's hash chain",
      responses: { "200": ok("The chain's state.", "AuditVerify"), ...ERRORS },
    },
  },
  "/api/audit/export.csv": {
    get: {
      operationId: "exportAuditLog",
      summary: "Admin: the audit log as CSV, with the same filters",
      parameters: auditQueryParameters.filter(({ name }) => name !== "cursor" && name !== "limit"),
      responses: { "200": { description: "CSV.", content: { "text/csv": {} } }, ...ERRORS },
    },
  },
  "/api/health": {
    get: {
      operationId: "health",
      summary: "Liveness: the process answers",
      security: [],
      responses: { "200": ok("Alive.", "Health") },
    },
  },
  "/api/ready": {
    get: {
      operationId: "ready",
      summary: "Readiness: configuration fits, database reachable and migrated",
      security: [],
      responses: {
        "200": ok("Ready to serve.", "Ready"),
        "503": error("Not ready: `not_ready`, every reason in details.reasons."),
      },
    },
  },
  "/api/openapi.json": {
    get: {
      operationId: "openApiDocument",
      summary: "This document",
      security: [],
      responses: { "200": { description: "OpenAPI 3.1.", content: { "application/json": {} } } },
    },
  },
} satisfies Record<string, Record<string, Operation>>;

/** The document; one object per process (it depends on nothing but the code). */
export function consoleOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Card Services Console",
      version: "1",
      description:
        "The console's own HTTP interface. Calls carry the session cookie; mutating calls need " +
        "`Content-Type: application/json` and a same-origin `Origin`. Errors: " +
        '`{"error": {"code", "message", "details"?}}`.',
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "/" }],
    security: [{ sessionCookie: [] }],
    paths: PATHS,
    components: {
      schemas: COMPONENTS,
      securitySchemes: {
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

export type ConsoleOperationPath = keyof typeof PATHS;
