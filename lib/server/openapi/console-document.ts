/**
 * The OpenAPI 3.1 document of the console's HTTP interface (DESIGN.md §4), served at GET /api/openapi.json.
 * Request bodies and parameters come from the zod schemas the routes validate with (lib/shared/contracts.ts,
 * lib/shared/certification-api.ts, lib/shared/support-contract.ts), responses from the same lib/shared modules
 * (re-exported by lib/server/openapi/console-schemas.ts, beside the answers only this document names) and
 * lib/server/identity/me.ts.
 */
import { SANDBOX_EXAMPLES } from "@/lib/sandbox/examples";
import { z } from "zod";
import {
  balanceInquiryInputSchema,
  credentialsInputSchema,
  environmentInputSchema,
  giftBalanceInquiryInputSchema,
  freeFormRequestInputSchema,
  transactionLookupParamsSchema,
} from "@/lib/shared/contracts";
import { meResponseSchema } from "@/lib/server/identity/me";
import { startRunInputSchema } from "@/lib/shared/certification-api";
import { supportBatchInputSchema, supportLookupInputSchema } from "@/lib/shared/support-contract";
import { adminSuspendInputSchema } from "@/lib/shared/admin-contract";
import {
  startClientCertificationSchema,
  clientStepIdSchema,
  clientCertificationIdSchema,
  clientCallPageSchema,
} from "@/lib/shared/client-certification-contract";
import {
  auditFilterQuerySchema,
  clientCertificationListSchema,
  clientCertificationViewSchema,
  startedClientCertificationSchema,
  auditPageSchema,
  auditVerifySchema,
  errorBodySchema,
  exchangeRecordSchema,
  inquiryAnswerSchema,
  healthSchema,
  logoutResultSchema,
  publicJwkSchema,
  readySchema,
  runListSchema,
  runViewSchema,
  sessionInfoSchema,
  startRunResultSchema,
  adminSessionListSchema,
  adminSessionsEndedSchema,
  adminSuspensionListSchema,
  adminSuspendedSchema,
  adminLiftedSchema,
  auditUserListSchema,
  supportBatchListSchema,
  supportBatchProgressSchema,
  supportBatchResultsSchema,
  supportTransactionLookupSchema,
  supportLookupResultSchema,
  supportResultsQuerySchema,
  teamRunListSchema,
  teamRunSchema,
  tokenResultSchema,
  verifyResultSchema,
  monitorDeletedSchema,
  monitorDetailSchema,
  monitorListSchema,
  monitorRunResultSchema,
  monitorSchema,
} from "./console-schemas";
import { createMonitorSchema, updateMonitorSchema } from "@/lib/shared/monitors-api";
import { componentRef, jsonContent, jsonSchema, type JsonSchema } from "@/lib/shared/json-schema";
import { teamRunQuerySchema } from "@/lib/server/inquiry/runs/api";
import { testCardListSchema, testCardNumberSchema } from "@/lib/shared/test-cards";

const COMPONENTS = {
  ErrorBody: jsonSchema(errorBodySchema, "output"),
  SessionInfo: jsonSchema(sessionInfoSchema, "output"),
  ExchangeRecord: jsonSchema(exchangeRecordSchema, "output"),
  InquiryAnswer: jsonSchema(inquiryAnswerSchema, "output"),
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
  FreeFormRequestInput: jsonSchema(freeFormRequestInputSchema, "input"),
  PublicJwk: jsonSchema(publicJwkSchema, "output"),
  StartRunInput: jsonSchema(startRunInputSchema, "input"),
  StartRunResult: jsonSchema(startRunResultSchema, "output"),
  RunList: jsonSchema(runListSchema, "output"),
  RunView: jsonSchema(runViewSchema, "output"),
  VerifyResult: jsonSchema(verifyResultSchema, "output"),
  SupportLookupInput: jsonSchema(supportLookupInputSchema, "input"),
  SupportLookupResult: jsonSchema(supportLookupResultSchema, "output"),
  SupportBatchInput: jsonSchema(supportBatchInputSchema, "input"),
  SupportBatchProgress: jsonSchema(supportBatchProgressSchema, "output"),
  SupportBatchResults: jsonSchema(supportBatchResultsSchema, "output"),
  TeamRunList: jsonSchema(teamRunListSchema, "output"),
  TeamRun: jsonSchema(teamRunSchema, "output"),
  StartClientCertificationInput: jsonSchema(startClientCertificationSchema, "input"),
  EmptyInput: jsonSchema(z.object({}).strict(), "input"),
  ClientCertificationList: jsonSchema(clientCertificationListSchema, "output"),
  ClientCertification: jsonSchema(clientCertificationViewSchema, "output"),
  StartedClientCertification: jsonSchema(startedClientCertificationSchema, "output"),
  SupportBatchList: jsonSchema(supportBatchListSchema, "output"),
  AdminSessionList: jsonSchema(adminSessionListSchema, "output"),
  AdminSessionsEnded: jsonSchema(adminSessionsEndedSchema, "output"),
  AdminSuspensionList: jsonSchema(adminSuspensionListSchema, "output"),
  AdminSuspendInput: jsonSchema(adminSuspendInputSchema, "input"),
  AdminSuspended: jsonSchema(adminSuspendedSchema, "output"),
  AdminLifted: jsonSchema(adminLiftedSchema, "output"),
  AuditUserList: jsonSchema(auditUserListSchema, "output"),
  SupportTransactionLookup: jsonSchema(supportTransactionLookupSchema, "output"),
  CreateMonitorInput: jsonSchema(createMonitorSchema, "input"),
  UpdateMonitorInput: jsonSchema(updateMonitorSchema, "input"),
  Monitor: jsonSchema(monitorSchema, "output"),
  MonitorList: jsonSchema(monitorListSchema, "output"),
  MonitorDetail: jsonSchema(monitorDetailSchema, "output"),
  MonitorRunResult: jsonSchema(monitorRunResultSchema, "output"),
  MonitorDeleted: jsonSchema(monitorDeletedSchema, "output"),
  TestCardList: jsonSchema(testCardListSchema, "output"),
  TestCardNumber: jsonSchema(testCardNumberSchema, "output"),
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
  "403": error(
    "Cross-origin call, the user's roles do not allow it (`forbidden_by_role`), or an administrator suspended the user (`user_suspended`).",
  ),
  default: error("Any other error, in the one error shape."),
};

const UPSTREAM_ERRORS = {
  "409": error("The session's environment changed since the page was shown (`environment_changed`)."),
  "502": error("The upstream could not be reached (connection refused, TLS failure)."),
  "504": error("The upstream did not answer in time."),
};

/** What the certification and support routes add to ERRORS: a missing run or batch, an over-large upload. */
const NOT_FOUND = {
  "404": error("No such run or batch (`not_found`); a batch is its owner's (admins see all)."),
};
const TOO_LARGE = { "413": error("The body is larger than the route reads (`payload_too_large`).") };

/**
 * Which console role the route declares (lib/server/http/access.ts; roles per DESIGN.md §6): `somewhere` is the action
 * in at least one environment, `here` in the session's (or, for a batch, the batch's) environment.
 */
function requires(
  action: "certification_run" | "support_lookup" | "support_batch" | "raw_exchange",
  where: string,
): string {
  const roles =
    action === "certification_run"
      ? "`tester` and `admin` everywhere, `engineer` on embedded and sandbox"
      : action === "raw_exchange"
        ? "`engineer`, `tester`, `admin`; never `support`"
        : "every role (`support`, `engineer`, `tester`, `admin`) in every environment";
  return `Needs \`${action}\` ${where} (${roles}); 403 \`forbidden_by_role\` otherwise.`;
}

/** Request examples from the sandbox's data, so that a call imported from this document works as it stands. */
const card = { card_number: SANDBOX_EXAMPLES.cardNumber, location_id: SANDBOX_EXAMPLES.locationId };
const BODY_EXAMPLES: Partial<Record<ComponentName, unknown>> = {
  CredentialsInput: { profile: "demo" },
  EnvironmentInput: { environment: "embedded" },
  GiftBalanceInquiryInput: { ...card, environment: "embedded" },
  BalanceInquiryInput: { ...card, environment: "embedded" },
  FreeFormRequestInput: {
    operation: "balance_inquiry",
    environment: "embedded",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({
      data: {
        entry_mode: "keyed",
        card_number: SANDBOX_EXAMPLES.cardNumber,
        pin_mode: "none",
        originator: { location_id: SANDBOX_EXAMPLES.locationId },
      },
    }),
  },
  StartRunInput: { environment: "embedded" },
  StartClientCertificationInput: { environment: "embedded" },
  EmptyInput: {},
  SupportLookupInput: { card_number: SANDBOX_EXAMPLES.cardNumber },
  AdminSuspendInput: { user_id: "sam", minutes: 60, reason: "TICKET-1" },
  CreateMonitorInput: { name: "Embedded, hourly", environment: "embedded", every_minutes: 60 },
  UpdateMonitorInput: { paused: true },
};

const jsonBody = (name: ComponentName) => ({
  required: true,
  content: { "application/json": { schema: componentRef(name), example: BODY_EXAMPLES[name] } },
});

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
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, unknown>;
}

const runIdParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The run's id (the `id` of the 202 that started it).",
  schema: jsonSchema(startRunResultSchema.shape.id, "input"),
};

const batchIdParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The batch's id (the `id` of the 202 that started it); anything else is 404.",
  schema: jsonSchema(supportBatchProgressSchema.shape.id, "input"),
};

const resultsQueryParameters = Object.entries(
  jsonSchema(supportResultsQuerySchema, "input").properties as Record<string, JsonSchema>,
).map(([name, schema]) => ({ name, in: "query", required: false, schema }));

const zipContent = { "application/zip": { schema: { type: "string", contentMediaType: "application/zip" } } };

const teamRunQueryParameters = Object.entries(
  jsonSchema(teamRunQuerySchema, "input").properties as Record<string, JsonSchema>,
).map(([name, schema]) => ({ name, in: "query", required: false, schema }));

const callPageParameters = Object.entries(
  jsonSchema(clientCallPageSchema, "input").properties as Record<string, JsonSchema>,
).map(([name, schema]) => ({ name, in: "query", required: false, schema }));

const certificationIdParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The certification's id (the `id` of the 201 that started it).",
  schema: jsonSchema(clientCertificationIdSchema, "input"),
};

const clientCertificationPaths = {
  "/api/client-certifications": {
    get: {
      operationId: "listClientCertifications",
      summary: "The integration certifications kept, newest first, with their verdicts",
      description: requires("certification_run", "in at least one environment"),
      responses: { "200": ok("The certifications.", "ClientCertificationList"), ...ERRORS },
    },
    post: {
      operationId: "startClientCertification",
      summary:
        "Start certifying your application: registers a fresh sandbox client and answers its secret, the one time it leaves the server (audited)",
      description: requires("certification_run", "on embedded"),
      requestBody: jsonBody("StartClientCertificationInput"),
      responses: {
        "201": ok("The certification, with the client's secret.", "StartedClientCertification"),
        ...ERRORS,
      },
    },
  },
  "/api/client-certifications/{id}": {
    get: {
      operationId: "getClientCertification",
      summary:
        "Status, steps, the checks so far, the call counters and a page of the recorded calls (masked, redacted): the calls after `calls_after` (their `seq`), at most `limit` (100 when not given); another user's certification is 404 (admins excepted)",
      description: requires("certification_run", "in at least one environment"),
      parameters: [certificationIdParameter, ...callPageParameters],
      responses: { "200": ok("The certification.", "ClientCertification"), ...ERRORS, ...NOT_FOUND },
    },
  },
  "/api/client-certifications/{id}/steps/{step}": {
    post: {
      operationId: "armClientCertificationStep",
      summary: "Arm a step for this certification's client only, ending the one before (audited)",
      description: requires("certification_run", "in at least one environment"),
      parameters: [
        certificationIdParameter,
        { name: "step", in: "path", required: true, schema: jsonSchema(clientStepIdSchema, "input") },
      ],
      requestBody: jsonBody("EmptyInput"),
      responses: {
        "200": ok("The certification, the step armed.", "ClientCertification"),
        ...ERRORS,
        ...NOT_FOUND,
        "409": error("The certification has finished or expired (`certification_finished`)."),
      },
    },
  },
  "/api/client-certifications/{id}/finish": {
    post: {
      operationId: "finishClientCertification",
      summary: "Judge the recorded traffic, revoke the client, set `done` (audited)",
      description: requires("certification_run", "in at least one environment"),
      parameters: [certificationIdParameter],
      requestBody: jsonBody("EmptyInput"),
      responses: {
        "200": ok("The certification, judged.", "ClientCertification"),
        ...ERRORS,
        ...NOT_FOUND,
        "409": error("The certification has already finished or expired (`certification_finished`)."),
      },
    },
  },
  "/api/client-certifications/{id}/evidence": {
    get: {
      operationId: "getClientCertificationEvidence",
      summary: 'The signed evidence bundle with `"kind": "client"` (audited)',
      description: requires("certification_run", "in at least one environment"),
      parameters: [certificationIdParameter],
      responses: { "200": { description: "The bundle.", content: zipContent }, ...ERRORS, ...NOT_FOUND },
    },
  },
};

const MONITOR_READ =
  "Needs `monitor_read` (`engineer`, `tester`, `admin`); 403 `forbidden_by_role` otherwise.";
const MONITOR_WRITE = "Needs `monitor_write` (`tester`, `admin`); 403 `forbidden_by_role` otherwise.";
const monitorIdParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The monitor's id (the `id` of the 201 that created it).",
  schema: { type: "string" },
};
const MONITOR_NOT_FOUND = { "404": error("No such monitor (`not_found`).") };

const monitorPaths = {
  "/api/monitors": {
    get: {
      operationId: "listMonitors",
      summary: "Every monitor with its state, next run and last run",
      description: MONITOR_READ,
      responses: { "200": ok("The monitors.", "MonitorList"), ...ERRORS },
    },
    post: {
      operationId: "createMonitor",
      summary: "Create a monitor: certification on a schedule (its first run starts at once)",
      description:
        `${MONITOR_WRITE} \`allow_production_gift\` only an admin may set. An environment the console cannot ` +
        "certify: 400 `environment_unavailable`; past the console's or the user's cap: 409 `monitor_limit`.",
      requestBody: jsonBody("CreateMonitorInput"),
      responses: { "201": ok("Created.", "Monitor"), "409": error("`monitor_limit`."), ...ERRORS },
    },
  },
  "/api/monitors/{id}": {
    get: {
      operationId: "getMonitor",
      summary: "One monitor and its last 50 runs",
      description: MONITOR_READ,
      parameters: [monitorIdParameter],
      responses: { "200": ok("The monitor and its runs.", "MonitorDetail"), ...ERRORS, ...MONITOR_NOT_FOUND },
    },
    patch: {
      operationId: "updateMonitor",
      summary: "Pause, resume or change a monitor",
      description: MONITOR_WRITE,
      parameters: [monitorIdParameter],
      requestBody: jsonBody("UpdateMonitorInput"),
      responses: { "200": ok("The monitor as changed.", "Monitor"), ...ERRORS, ...MONITOR_NOT_FOUND },
    },
    delete: {
      operationId: "deleteMonitor",
      summary: "Delete a monitor and its run list (a run under way ends on its own)",
      description: MONITOR_WRITE,
      parameters: [monitorIdParameter],
      responses: { "200": ok("Deleted.", "MonitorDeleted"), ...ERRORS, ...MONITOR_NOT_FOUND },
    },
  },
  "/api/monitors/{id}/run": {
    post: {
      operationId: "runMonitorNow",
      summary: "Run a monitor now; its schedule does not move",
      description: `${MONITOR_WRITE} While a run of it is under way: 409 \`run_in_progress\`.`,
      parameters: [monitorIdParameter],
      responses: {
        "202": ok("Started: the certification run's id.", "MonitorRunResult"),
        "409": error("`run_in_progress`."),
        ...ERRORS,
        ...MONITOR_NOT_FOUND,
      },
    },
  },
};

const PATHS = {
  ...clientCertificationPaths,
  ...monitorPaths,
  "/api/runs": {
    get: {
      operationId: "listTeamRuns",
      summary:
        "The team's inquiry runs kept on the server (masked, redacted), newest first; filter by Request Id, user, operation",
      description: requires("raw_exchange", "in at least one environment"),
      parameters: teamRunQueryParameters,
      responses: { "200": ok("The runs.", "TeamRunList"), ...ERRORS },
    },
  },
  "/api/runs/{id}": {
    get: {
      operationId: "getTeamRun",
      summary: "One team run with its exchange record, as recorded",
      description: requires("raw_exchange", "in at least one environment"),
      parameters: [{ ...runIdParameter, description: "The run's id (its exchange record's id)." }],
      responses: { "200": ok("The run.", "TeamRun"), ...ERRORS, ...NOT_FOUND },
    },
  },
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
        content: { "application/json": { schema: jsonSchema(z.object({}).strict(), "input"), example: {} } },
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
        "200": ok(
          "The upstream answered, whatever its status: the exchange record, with the session as it now stands.",
          "InquiryAnswer",
        ),
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
        "200": ok(
          "The upstream answered, whatever its status: the exchange record, with the session as it now stands.",
          "InquiryAnswer",
        ),
        ...ERRORS,
        ...UPSTREAM_ERRORS,
      },
    },
  },
  "/api/requests": {
    post: {
      operationId: "freeFormRequest",
      summary:
        "A free-form call of one card operation: your headers and body, the console's address and token",
      description:
        "`body` (at most 16 KiB) is sent byte for byte with the `Content-Type` of `headers` (default " +
        "`application/json`); `Host`, `Authorization`, `Content-Length`, `Transfer-Encoding`, `Connection`, " +
        "`Cookie` and hop-by-hop headers are refused with 400 `header_not_allowed`. For a lookup, `request_id` " +
        "is the path's id. " +
        requires("raw_exchange", "in the session's environment") +
        " The operation itself needs its own action too (an engineer's Gift Balance Inquiry in production: 403).",
      requestBody: jsonBody("FreeFormRequestInput"),
      responses: {
        "200": ok(
          "The upstream answered, whatever its status: the exchange record (`free_form: true`, cards masked " +
            "in the body too), with the session as it now stands.",
          "InquiryAnswer",
        ),
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
          example: SANDBOX_EXAMPLES.lookupRequestId,
        },
        {
          ...environmentQuery,
          description: "Whose cards; the session's environment when absent.",
          example: "embedded",
        },
      ],
      responses: {
        "200": {
          description:
            "The upstream answered (a 404 upstream included): the exchange record, or — for a caller who may " +
            "not see raw exchanges (`support`) — a summary: found or not, time, result, gift balance, last 4.",
          content: jsonContent({
            oneOf: [componentRef("ExchangeRecord"), componentRef("SupportTransactionLookup")],
          }),
        },
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
  "/api/audit/users": {
    get: {
      operationId: "listAuditUsers",
      summary: "Admin: the user ids the audit log knows that contain `q` (any case), in order (audited)",
      parameters: [
        { name: "q", in: "query", required: false, schema: { type: "string", maxLength: 256 } },
        {
          name: "limit",
          in: "query",
          required: false,
          schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        },
      ],
      responses: { "200": ok("The matching user ids.", "AuditUserList"), ...ERRORS },
    },
  },
  "/api/admin/sessions": {
    get: {
      operationId: "listSessions",
      summary: "Admin: the live sessions (who, since when, last seen), each named by a handle",
      responses: { "200": ok("The live sessions.", "AdminSessionList"), ...ERRORS },
    },
    delete: {
      operationId: "endUserSessions",
      summary: "Admin: end every live session of a user (audited)",
      parameters: [{ name: "user", in: "query", required: true, schema: { type: "string" } }],
      responses: { "200": ok("How many sessions ended.", "AdminSessionsEnded"), ...ERRORS },
    },
  },
  "/api/admin/sessions/{id}": {
    delete: {
      operationId: "endSession",
      summary: "Admin: end one live session by its handle (audited); 404 when none is live",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": ok("The session ended.", "AdminSessionsEnded"), ...ERRORS },
    },
  },
  "/api/admin/suspensions": {
    get: {
      operationId: "listSuspensions",
      summary: "Admin: the suspensions in force, and the console's auth mode",
      responses: { "200": ok("The suspensions in force.", "AdminSuspensionList"), ...ERRORS },
    },
    post: {
      operationId: "suspendUser",
      summary:
        "Admin: keep a user out for `minutes` (1 to 43,200) on every instance (403 `user_suspended`); ends their sessions; audited",
      requestBody: jsonBody("AdminSuspendInput"),
      responses: { "201": ok("The suspension.", "AdminSuspended"), ...ERRORS },
    },
  },
  "/api/admin/suspensions/{user}": {
    delete: {
      operationId: "liftSuspension",
      summary: "Admin: lift a user's suspension (audited); 404 when none is in force",
      parameters: [{ name: "user", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": ok("The suspension was lifted.", "AdminLifted"), ...ERRORS },
    },
  },
  "/api/audit/verify": {
    get: {
      operationId: "verifyAuditLog",
      summary: "Admin: check the audit log's hash chain",
      parameters: [
        {
          name: "from",
          in: "query",
          description:
            "checkpoint: start at the last checkpoint an earlier verify found intact; start (default): row 1",
          schema: { type: "string", enum: ["start", "checkpoint"] },
        },
      ],
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
  "/api/certification/runs": {
    get: {
      operationId: "listCertificationRuns",
      summary: "The certification runs kept, newest first",
      description: requires("certification_run", "in at least one environment"),
      responses: { "200": ok("The runs, without checks or exchanges.", "RunList"), ...ERRORS },
    },
    post: {
      operationId: "startCertificationRun",
      summary: "Start a certification run in the background, against the environment it names",
      description:
        requires("certification_run", "in the environment the body names") +
        " Unconfigured environment: 400 `environment_unavailable`; no credentials: 401 `no_credentials`.",
      requestBody: jsonBody("StartRunInput"),
      responses: {
        "202": {
          description: "Started; follow it at Location.",
          headers: {
            Location: { description: "`/api/certification/runs/{id}`.", schema: { type: "string" } },
          },
          content: jsonContent(componentRef("StartRunResult")),
        },
        ...ERRORS,
      },
    },
  },
  "/api/certification/runs/{id}": {
    get: {
      operationId: "getCertificationRun",
      summary: "One run: progress and per-case results (the exchange bodies are in the evidence bundle)",
      description: requires("certification_run", "in at least one environment"),
      parameters: [runIdParameter],
      responses: { "200": ok("The run.", "RunView"), ...ERRORS, ...NOT_FOUND },
    },
  },
  "/api/certification/runs/{id}/cancel": {
    post: {
      operationId: "cancelCertificationRun",
      summary:
        "Cancel a queued or running run: the case under way finishes, the rest do not run; status `cancelled`, the bundle signs what ran (audited)",
      description: requires("certification_run", "in the run's environment"),
      parameters: [runIdParameter],
      responses: {
        "200": ok("The run, cancelled (or as it was, when it had already ended).", "RunView"),
        ...ERRORS,
        ...NOT_FOUND,
        "409": error("The run is under way on another console instance (`run_not_finished`)."),
      },
    },
  },
  "/api/certification/runs/{id}/exchanges/{exchangeId}": {
    get: {
      operationId: "getCertificationRunExchange",
      summary: "One exchange of a run, masked and redacted as stored (as in the evidence bundle)",
      description: requires("certification_run", "in at least one environment"),
      parameters: [
        runIdParameter,
        {
          name: "exchangeId",
          in: "path",
          required: true,
          description: "An exchange id of the run (`exchanges[].id` of the run view).",
          schema: { type: "string" },
        },
      ],
      responses: { "200": ok("The exchange record.", "ExchangeRecord"), ...ERRORS, ...NOT_FOUND },
    },
  },
  "/api/certification/runs/{id}/evidence": {
    get: {
      operationId: "downloadCertificationEvidence",
      summary: "The run's signed evidence bundle, as an attachment",
      description: requires("certification_run", "in at least one environment"),
      parameters: [runIdParameter],
      responses: {
        "200": {
          description: "The bundle (a zip signed with the key of /api/certification/public-key).",
          headers: { "Content-Disposition": { schema: { type: "string" } } },
          content: zipContent,
        },
        ...ERRORS,
        ...NOT_FOUND,
        "409": error("The run is still queued or running (`run_not_finished`): it is signed when it ends."),
      },
    },
  },
  "/api/certification/verify": {
    post: {
      operationId: "verifyCertificationEvidence",
      summary: "Check an evidence bundle: file hashes, signature, and whether this console signed it",
      description: requires("certification_run", "in at least one environment"),
      requestBody: { required: true, description: "The bundle as downloaded.", content: zipContent },
      responses: {
        "200": ok("The verdict, whether intact or not (`ok`, `problems`).", "VerifyResult"),
        ...ERRORS,
        ...TOO_LARGE,
        "415": error("Not sent as `application/zip` (`unsupported_media_type`)."),
      },
    },
  },
  "/api/certification/public-key": {
    get: {
      operationId: "certificationPublicKey",
      summary: "The public JWK (Ed25519) that verifies this console's evidence bundles",
      description: "Public: verifiers need no console account (each bundle carries the key too).",
      security: [],
      responses: { "200": ok("The key.", "PublicJwk"), default: ERRORS.default },
    },
  },
  "/api/support/lookups": {
    post: {
      operationId: "supportLookup",
      summary: "Support desk: one Balance Inquiry in the session's environment, answered masked (last 4)",
      description:
        requires("support_lookup", "in the session's environment") +
        " No answer upstream (timeout, unreachable, 429) is an `outcome` of the 200, not an error.",
      requestBody: jsonBody("SupportLookupInput"),
      responses: {
        "200": ok("What the lookup found, in the support shape.", "SupportLookupResult"),
        ...ERRORS,
        "409": UPSTREAM_ERRORS["409"],
        "429": error("The caller's per-minute limit of upstream calls (`rate_limited`)."),
      },
    },
  },
  "/api/support/batches": {
    get: {
      operationId: "listSupportBatches",
      summary: "Support desk: the caller's batches (everyone's for an admin), newest first, with progress",
      description: requires("support_batch", "in at least one environment"),
      responses: { "200": ok("The batches kept (24 hours).", "SupportBatchList"), ...ERRORS },
    },
    post: {
      operationId: "startSupportBatch",
      summary: "Support desk: start a batch of lookups in the session's environment, run on the server",
      description:
        requires("support_batch", "in the session's environment") +
        " Cards as a JSON list, as CSV text in JSON, or as a `text/csv` upload (one per line, or a " +
        "`card_number` column); no card number found: 400 `validation_failed`.",
      parameters: [
        {
          name: "reason",
          in: "query",
          required: false,
          description: "With a `text/csv` upload only: the reason or ticket kept in the audit log.",
          schema: jsonSchema(supportBatchInputSchema.options[1].shape.reason, "input"),
        },
      ],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: componentRef("SupportBatchInput"),
            example: { cards: [SANDBOX_EXAMPLES.cardNumber, "6006491000000019"] },
          },
          "text/csv": { schema: { type: "string" }, example: "card_number\n6006491000000001\n" },
        },
      },
      responses: {
        "202": ok("Started: its progress (poll /api/support/batches/{id}).", "SupportBatchProgress"),
        ...ERRORS,
        ...TOO_LARGE,
      },
    },
  },
  "/api/support/batches/{id}/retry": {
    post: {
      operationId: "retrySupportBatchFailures",
      summary: "Support desk: a new batch of a batch's failed cards (no usable answer), run on the server",
      description: requires("support_batch", "in the batch's environment") + " No failed card: 400.",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
      responses: { "202": ok("Started: the new batch's progress.", "SupportBatchProgress"), ...ERRORS },
    },
  },
  "/api/support/batches/{id}": {
    get: {
      operationId: "getSupportBatch",
      summary: "Support desk: a batch's progress",
      description: requires("support_batch", "in the batch's environment"),
      parameters: [batchIdParameter],
      responses: { "200": ok("Its progress.", "SupportBatchProgress"), ...ERRORS, ...NOT_FOUND },
    },
    delete: {
      operationId: "cancelSupportBatch",
      summary: "Support desk: cancel a batch (cards not yet run will not run)",
      description: requires("support_batch", "in the batch's environment"),
      parameters: [batchIdParameter],
      responses: {
        "200": ok("Its progress after cancelling.", "SupportBatchProgress"),
        ...ERRORS,
        ...NOT_FOUND,
      },
    },
  },
  "/api/support/batches/{id}/results": {
    get: {
      operationId: "getSupportBatchResults",
      summary: "Support desk: a page of a batch's masked results, in input order",
      description: requires("support_batch", "in the batch's environment"),
      parameters: [batchIdParameter, ...resultsQueryParameters],
      responses: {
        "200": ok("One page; `next_position` is the next `from`.", "SupportBatchResults"),
        ...ERRORS,
        ...NOT_FOUND,
      },
    },
  },
  "/api/support/batches/{id}/results.csv": {
    get: {
      operationId: "exportSupportBatchResults",
      summary:
        "Support desk: a batch's masked results as CSV (line, last4, card_hash, the eight purses, status, error)",
      description: requires("support_batch", "in the batch's environment"),
      parameters: [batchIdParameter],
      responses: {
        "200": {
          description: "CSV, one row per card in input order, as an attachment.",
          headers: { "Content-Disposition": { schema: { type: "string" } } },
          content: { "text/csv": { schema: { type: "string" } } },
        },
        ...ERRORS,
        ...NOT_FOUND,
      },
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
  "/api/postman-collection.json": {
    get: {
      operationId: "postmanCollection",
      summary: "The Card Services API as a Postman v2.1 collection for one environment",
      description:
        "Variables authUrl and baseUrl (the environment's addresses), client_id and client_secret (empty), a " +
        "token script, one request per operation with the specification's promises as tests. Needs " +
        "`copy_as_code` in that environment (`engineer`, `tester`, `admin`).",
      parameters: [{ ...environmentQuery, required: true, example: "embedded" }],
      responses: {
        "200": { description: "Postman collection v2.1.", content: { "application/json": {} } },
        ...ERRORS,
      },
    },
  },
  "/api/postman-environment.json": {
    get: {
      operationId: "postmanEnvironment",
      summary: "A Postman environment for one environment, to import beside the collection",
      description:
        "Values authUrl and baseUrl (the environment's addresses), client_id and client_secret (empty; the " +
        "secret typed `secret`). Needs `copy_as_code` in that environment (`engineer`, `tester`, `admin`).",
      parameters: [{ ...environmentQuery, required: true, example: "embedded" }],
      responses: {
        "200": { description: "Postman environment.", content: { "application/json": {} } },
        ...ERRORS,
      },
    },
  },
  "/api/test-cards": {
    get: {
      operationId: "testCards",
      summary: "The test cards a user may try in an environment, masked, each saying what it does",
      description:
        "On `embedded` the sandbox's test cards; on `sandbox` the cards of the server's CERTIFICATION_PROFILE " +
        "file; elsewhere an empty list. Needs `raw_exchange` in that environment (`engineer`, `tester`, `admin`).",
      parameters: [
        {
          ...environmentQuery,
          description: "Whose cards; the session's environment when absent.",
          example: "embedded",
        },
      ],
      responses: { "200": ok("The cards, masked (first 6 + last 4).", "TestCardList"), ...ERRORS },
    },
  },
  "/api/test-cards/{id}": {
    get: {
      operationId: "testCardNumber",
      summary: "One test card's full number, to fill the card field with",
      description: "Same roles as GET /api/test-cards; `Cache-Control: no-store`.",
      parameters: [
        {
          name: "id",
          in: "path",
          required: true,
          description: "An `id` of GET /api/test-cards in the same environment.",
          schema: { type: "string", pattern: "^[a-z][a-z0-9-]{0,31}$" },
          example: "sandbox-1",
        },
        {
          ...environmentQuery,
          description: "Whose cards; the session's environment when absent.",
          example: "embedded",
        },
      ],
      responses: {
        "200": ok("The full card number.", "TestCardNumber"),
        "404": error("No such card in that environment (`not_found`)."),
        ...ERRORS,
      },
    },
  },
  "/api/starter-clients": {
    get: {
      operationId: "starterClients",
      summary: "The starter clients: one small program per language that does every duty of a client",
      description: "Public, like the documents. `run` is how the client's README runs one command.",
      security: [],
      responses: {
        "200": {
          description: "The catalogue.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["clients"],
                properties: {
                  clients: {
                    type: "array",
                    items: {
                      type: "object",
                      required: ["language", "title", "run"],
                      properties: {
                        language: { type: "string", example: "node" },
                        title: { type: "string", example: "JavaScript (Node 20+)" },
                        run: { type: "string", example: "node client.mjs <command>" },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  "/api/starter-clients/{file}": {
    get: {
      operationId: "starterClientZip",
      summary: "One starter client as a zip: its source, README.md and .env.example",
      description: "Public, like the documents.",
      security: [],
      parameters: [
        {
          name: "file",
          in: "path",
          required: true,
          description: "`{language}.zip`, a language of GET /api/starter-clients.",
          schema: { type: "string", pattern: "^[a-z]{1,32}\\.zip$" },
          example: "node.zip",
        },
      ],
      responses: {
        "200": {
          description: "The zip, as an attachment.",
          headers: { "Content-Disposition": { schema: { type: "string" } } },
          content: zipContent,
        },
        "404": error("No starter client for that language in this build (`not_found`)."),
        default: error("Any other error, in the one error shape."),
      },
    },
  },
  "/api/metrics": {
    get: {
      operationId: "metrics",
      summary: "Prometheus metrics (text format 0.0.4)",
      description: "`Authorization: Bearer $METRICS_TOKEN`, or a signed-in admin.",
      security: [{ metricsToken: [] }, { sessionCookie: [] }],
      responses: {
        "200": { description: "The series.", content: { "text/plain": { schema: { type: "string" } } } },
        ...ERRORS,
      },
    },
  },
} satisfies Record<string, Record<string, Operation>>;

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
        '`{"error": {"code", "message", "details"?}}`.',
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: origin, description: "This console" }],
    security: [{ sessionCookie: [] }],
    paths: PATHS,
    components: {
      schemas: COMPONENTS,
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
