/**
 * The catalogue's entries for the session, the token, the inquiries and what an engineer's pages read around
 * them (runs, test cards, sign-in). Descriptions say what a user relies on; access and the wrapper's own errors
 * are derived (lib/server/openapi/console-document.ts).
 */
import { z } from "zod";
import { SANDBOX_EXAMPLES } from "@/lib/sandbox/examples";
import * as contracts from "@/lib/shared/contracts";
import {
  credentialsInputSchema,
  environmentInputSchema,
  freeFormRequestInputSchema,
  transactionLookupParamsSchema,
} from "@/lib/shared/contracts";
import { OPERATION_SPECS, type InquiryOperation } from "@/lib/shared/operations";
import {
  testCardIdSchema,
  testCardListSchema,
  testCardNumberSchema,
  testCardQuerySchema,
} from "@/lib/shared/test-cards";
import { PUBLIC, SIGNED_IN, allowIn, allowSomewhere } from "@/lib/server/http/access";
import type { RouteDeclaration } from "@/lib/server/http/declaration";
import { meResponseSchema } from "@/lib/server/identity/me";
import { teamRunQuerySchema } from "@/lib/server/inquiry/runs/api";
import {
  emptyInputSchema,
  exchangeRecordSchema,
  inquiryAnswerSchema,
  logoutResultSchema,
  sessionInfoSchema,
  supportTransactionLookupSchema,
  teamRunListSchema,
  teamRunSchema,
  tokenResultSchema,
} from "./console-schemas";

const [demoProfileSchema, clientCredentialsSchema] = credentialsInputSchema.options;

/** The errors of a call that reaches the Card Services API. */
const UPSTREAM_ERRORS = {
  no_credentials: "The session holds no credentials for this environment (and the server has none).",
  token_refused: "The token endpoint refused the credentials.",
  environment_changed:
    "The session's environment changed since the page was shown (another tab switched it).",
  upstream_unreachable: "The upstream could not be reached (connection refused).",
  upstream_tls_error: "The upstream's TLS handshake failed.",
  upstream_timeout: "The upstream did not answer in time.",
  token_too_large: "The token endpoint answered a token larger than the session can hold.",
  session_unstorable: "The session grew past what its cookie can hold.",
} as const;

const card = { card_number: SANDBOX_EXAMPLES.cardNumber, location_id: SANDBOX_EXAMPLES.locationId };

const ANSWERED =
  "The upstream answered, whatever its status: the exchange record, with the session as it now stands.";

/** An inquiry route: its access is the operation itself plus raw exchange (its answer is the exchange record). */
const inquiry = <O extends InquiryOperation>(operation: O, operationId: string, summary: string) => ({
  operationId,
  summary,
  access: allowIn(operation, "raw_exchange"),
  // The input schema the operation registry names.
  body: {
    schema: contracts[OPERATION_SPECS[operation].inputSchema],
    example: { ...card, environment: "embedded" },
  },
  answers: { 200: { description: ANSWERED, schema: inquiryAnswerSchema } },
  errors: UPSTREAM_ERRORS,
  options: { upstream: true },
});

const environmentNote = {
  description: "Whose cards; the session's environment when absent.",
  example: "embedded",
};

export const sessionRoutes = {
  "/api/session": {
    GET: {
      operationId: "getSession",
      summary: "Environment, credential source and client_id, token metadata",
      access: SIGNED_IN,
      answers: { 200: { description: "The session.", schema: sessionInfoSchema } },
    },
    DELETE: {
      operationId: "deleteSession",
      summary: "Forget credentials and token (and end a signed-in session)",
      access: SIGNED_IN,
      answers: { 200: { description: "The emptied session.", schema: sessionInfoSchema } },
    },
  },
  "/api/session/credentials": {
    PUT: {
      operationId: "putCredentials",
      summary: "Keep client credentials (or the sandbox's demo profile) in the session; never echoed",
      access: allowSomewhere("token_request"),
      body: {
        schema: credentialsInputSchema,
        example: { profile: "demo" },
        formOf: (raw) => ("profile" in raw ? demoProfileSchema : clientCredentialsSchema),
      },
      answers: { 200: { description: "The session, without the secret.", schema: sessionInfoSchema } },
      errors: { environment_unavailable: "The demo profile needs the embedded sandbox, which is off." },
    },
  },
  "/api/session/environment": {
    PUT: {
      operationId: "putEnvironment",
      summary: "Choose a configured environment",
      access: SIGNED_IN,
      body: { schema: environmentInputSchema, example: { environment: "embedded" } },
      answers: { 200: { description: "The session.", schema: sessionInfoSchema } },
      errors: {
        environment_unavailable: "The environment is not configured on this server (`details.available`).",
        forbidden_by_role: "The user's roles allow nothing in that environment.",
      },
    },
  },
  "/api/token": {
    POST: {
      operationId: "requestToken",
      summary: "Request a new token now: its metadata (never the token) and the exchange record",
      access: allowIn("token_request", "token_details", "raw_exchange"),
      body: { schema: emptyInputSchema, example: {}, required: false },
      answers: { 200: { description: "The upstream answered.", schema: tokenResultSchema } },
      errors: UPSTREAM_ERRORS,
      options: { upstream: true },
    },
  },
  "/api/inquiries/gift-balance": {
    POST: inquiry(
      "gift_balance_inquiry",
      "giftBalanceInquiry",
      "Gift Balance Inquiry (records a transaction upstream)",
    ),
  },
  "/api/inquiries/balance": {
    POST: inquiry("balance_inquiry", "balanceInquiry", "Balance Inquiry (read-only, every purse)"),
  },
  "/api/requests": {
    POST: {
      operationId: "freeFormRequest",
      summary:
        "A free-form call of one card operation: your headers and body, the console's address and token",
      description:
        "`body` (at most 16 KiB) is sent byte for byte with the `Content-Type` of `headers` (default " +
        "`application/json`); `Host`, `Authorization`, `Content-Length`, `Transfer-Encoding`, `Connection`, " +
        "`Cookie` and hop-by-hop headers are refused with 400 `header_not_allowed`. For a lookup, `request_id` " +
        "is the path's id. The operation itself needs its own action too (an engineer's Gift Balance Inquiry " +
        "in production: 403).",
      access: allowIn("raw_exchange"),
      body: {
        schema: freeFormRequestInputSchema,
        example: {
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
      },
      answers: {
        200: {
          description:
            "The upstream answered, whatever its status: the exchange record (`free_form: true`, cards masked " +
            "in the body too), with the session as it now stands.",
          schema: inquiryAnswerSchema,
        },
      },
      errors: {
        ...UPSTREAM_ERRORS,
        header_not_allowed: "A header the console sets itself, or a hop-by-hop header.",
        forbidden_by_role: "The operation named is not allowed to the caller's roles here.",
      },
      options: { upstream: true },
    },
  },
  "/api/transactions/request-id/[id]": {
    GET: {
      operationId: "lookupTransaction",
      summary: "Lookup Transaction by Request Id",
      access: allowIn("transaction_lookup"),
      params: transactionLookupParamsSchema.pick({ id: true }),
      query: z.object({ environment: transactionLookupParamsSchema.shape.environment }),
      parameters: {
        id: {
          description: "The X-Request-Id a Gift Balance Inquiry was sent with.",
          example: SANDBOX_EXAMPLES.lookupRequestId,
        },
        environment: {
          description:
            "The environment the page showed; refused with 409 when the session's has changed since.",
          example: "embedded",
        },
      },
      answers: {
        200: {
          description:
            "The upstream answered (a 404 upstream included): the exchange record, or — for a caller who may " +
            "not see raw exchanges (`support`) — a summary: found or not, time, result, gift balance, last 4.",
          schema: z.union([exchangeRecordSchema, supportTransactionLookupSchema]),
        },
      },
      errors: UPSTREAM_ERRORS,
      options: { upstream: true },
    },
  },
  "/api/runs": {
    GET: {
      operationId: "listTeamRuns",
      summary:
        "The team's inquiry runs kept on the server (masked, redacted), newest first; filter by Request Id, user, operation",
      access: allowSomewhere("raw_exchange"),
      query: teamRunQuerySchema,
      answers: { 200: { description: "The runs.", schema: teamRunListSchema } },
    },
  },
  "/api/runs/[id]": {
    GET: {
      operationId: "getTeamRun",
      summary: "One team run with its exchange record, as recorded",
      access: allowSomewhere("raw_exchange"),
      parameters: { id: { description: "The run's id (its exchange record's id)." } },
      answers: { 200: { description: "The run.", schema: teamRunSchema } },
      errors: { not_found: "No run with this id is kept (runs are kept RUNS_RETENTION_DAYS)." },
    },
  },
  "/api/test-cards": {
    GET: {
      operationId: "testCards",
      summary: "The test cards a user may try in an environment, masked, each saying what it does",
      description:
        "On `embedded` the sandbox's test cards; on `sandbox` the cards of the server's CERTIFICATION_PROFILE " +
        "file; elsewhere an empty list.",
      access: allowSomewhere("raw_exchange"),
      query: testCardQuerySchema,
      parameters: { environment: environmentNote },
      answers: { 200: { description: "The cards, masked (first 6 + last 4).", schema: testCardListSchema } },
      errors: { forbidden_by_role: "The caller may not see raw exchanges in that environment." },
    },
  },
  "/api/test-cards/[id]": {
    GET: {
      operationId: "testCardNumber",
      summary: "One test card's full number, to fill the card field with",
      access: allowSomewhere("raw_exchange"),
      params: z.object({ id: testCardIdSchema }),
      query: testCardQuerySchema,
      parameters: {
        id: { description: "An `id` of GET /api/test-cards in the same environment.", example: "sandbox-1" },
        environment: environmentNote,
      },
      answers: { 200: { description: "The full card number.", schema: testCardNumberSchema } },
      errors: {
        not_found: "No such card in that environment.",
        forbidden_by_role: "The caller may not see raw exchanges in that environment.",
      },
    },
  },
  "/api/me": {
    GET: {
      operationId: "getMe",
      summary: 'The signed-in user and what their roles allow; `{"user": null}` when signed out',
      access: PUBLIC,
      answers: { 200: { description: "The user, or null.", schema: meResponseSchema } },
      errors: {
        not_signed_in: "The session ended (`details.session_end`).",
        user_suspended: "An administrator suspended the user.",
        identity_changed: "Another user signed in in this browser since the page was loaded.",
        storage_unavailable: "The console's database did not answer.",
      },
    },
  },
  "/api/auth/login": {
    GET: {
      operationId: "signIn",
      summary: "AUTH_MODE=oidc: redirect to the identity provider",
      access: PUBLIC,
      query: z.object({ return_to: z.string().optional() }),
      parameters: {
        return_to: { description: "The page to come back to (a same-origin path).", example: "/" },
      },
      answers: { 302: { description: "To the identity provider." } },
      errors: {
        not_found: "Not in oidc mode.",
        upstream_unreachable: "The identity provider could not be reached.",
      },
    },
  },
  "/api/auth/callback": {
    GET: {
      operationId: "signInCallback",
      summary: "AUTH_MODE=oidc: the provider's redirect back; starts the session",
      access: PUBLIC,
      answers: { 302: { description: "To the page signed in from, or to /signed-out?error=<code>." } },
      errors: {
        not_found: "Not in oidc mode.",
        storage_unavailable: "The console's database did not answer.",
      },
    },
  },
  "/api/auth/logout": {
    POST: {
      operationId: "signOut",
      summary: "End the session on every instance",
      access: PUBLIC,
      answers: { 200: { description: "Signed out.", schema: logoutResultSchema } },
      errors: { storage_unavailable: "The console's database did not answer." },
    },
  },
} as const satisfies Record<string, Record<string, RouteDeclaration>>;
