/**
 * The OpenAPI 3.1 document of the sandbox (docs/design.md §5): token, both balance operations and Lookup
 * Transaction by Request Id, served at GET /sandbox/openapi.json in the console and GET /openapi.json by the
 * standalone sandbox. Requests are described with the zod schemas the sandbox validates with (./schemas),
 * responses with the specification's shapes the console checks upstream answers against
 * (lib/shared/card-api-schemas.ts); each operation carries `x-codeSamples` from the one code generator.
 */
import { z } from "zod";
import {
  balanceResponseSchema,
  giftBalanceResponseSchema,
  tokenResponseSchema,
} from "@/lib/shared/card-api-schemas";
import {
  BEARER,
  CODE_LANGUAGES,
  CODE_LANGUAGE_LABELS,
  JSON_MEDIA_TYPE,
  FRESH_UUID,
  codeSample,
  tokenSampleRequest,
  type SampleRequest,
} from "@/lib/shared/code-samples";
import { OPERATION_SPECS, type OperationName, type OperationSpec } from "@/lib/shared/operations";
import { componentRef, jsonContent, jsonSchema } from "@/lib/shared/json-schema";
import { cardRequestSchema, requestIdSchema, tokenRequestSchema } from "./schemas";
import { EXAMPLE_REQUEST_ID } from "./fixtures";
import { SANDBOX_EXAMPLES, cardRequestExample, exampleDemoSecret } from "./examples";

/** `{"errors":[{"status","code","title","detail"}]}`: lib/sandbox/http.ts's one error shape. */
const sandboxErrorSchema = z.object({
  errors: z.array(z.object({ status: z.string(), code: z.string(), title: z.string(), detail: z.string() })),
});

/** The sandbox answers the recorded Gift Balance Inquiry's data and the Request Id it was found by. */
const lookupResponseSchema = z.object({
  data: giftBalanceResponseSchema.shape.data,
  meta: z.object({ request_id: requestIdSchema }),
});

const COMPONENTS = {
  TokenRequest: jsonSchema(tokenRequestSchema, "input"),
  TokenResponse: jsonSchema(tokenResponseSchema, "input"),
  CardRequest: jsonSchema(cardRequestSchema, "input"),
  GiftBalanceResponse: jsonSchema(giftBalanceResponseSchema, "input"),
  BalanceResponse: jsonSchema(balanceResponseSchema, "input"),
  LookupResponse: jsonSchema(lookupResponseSchema, "input"),
  Errors: jsonSchema(sandboxErrorSchema, "output"),
};

const errors = (description: string) => ({ description, content: jsonContent(componentRef("Errors")) });
const ERRORS = {
  "400": errors("Invalid body (JSON:API errors)."),
  "401": errors("Missing, expired or invalid token."),
  default: errors("Any other error (JSON:API errors)."),
};
/**
 * The example twice: on the media type (Postman's "Example" import, Insomnia, Bruno) and inside an inline copy of
 * the schema as `examples` and `default` (Postman's default "Schema" import fakes values from the schema and
 * takes its `default`).
 */
const withExample = (name: keyof typeof COMPONENTS, example: unknown) => ({
  "application/json": { schema: { ...COMPONENTS[name], examples: [example], default: example }, example },
});
const schemaWithExample = (schema: Record<string, unknown>, example: string) => ({
  ...schema,
  examples: [example],
  default: example,
});
const cardBody = { required: true, content: withExample("CardRequest", cardRequestExample) };

export interface SandboxDocumentOptions {
  /** The absolute address of the sandbox: `{origin}/sandbox` in the console, the standalone server's own. */
  sandboxUrl: string;
  /** SANDBOX_DEMO_SECRET, or undefined for the public default (only that one is shown as an example). */
  demoSecret?: string;
}

/** The token endpoint as OAuth 2.0 clients call it (the sandbox also answers the form-encoded grant). */
function oauthScheme(sandboxUrl: string) {
  return {
    type: "oauth2",
    description: "Client credentials at the sandbox's token endpoint: demo-client / demo-secret by default.",
    flows: {
      clientCredentials: {
        tokenUrl: `${sandboxUrl}${OPERATION_SPECS.token.path}`,
        scopes: {
          "read:transactions": "Both balance operations and the lookup",
          "read:reports": "Reports (not served by the sandbox)",
          "export:reports": "Report exports (not served by the sandbox)",
        },
      },
    },
  };
}

/** The one operation without a bearer token. */
function tokenOperation(demoSecret: string | undefined) {
  const tokenExample = {
    client_id: SANDBOX_EXAMPLES.clientId,
    client_secret: exampleDemoSecret(demoSecret),
    grant_type: "client_credentials",
  };
  return {
    post: {
      operationId: "requestToken",
      summary: "Request an access token (client credentials)",
      security: [],
      requestBody: { required: true, content: withExample("TokenRequest", tokenExample) },
      responses: {
        "200": {
          description: "The token resource.",
          content: jsonContent(componentRef("TokenResponse")),
        },
        ...ERRORS,
      },
    },
  };
}

function giftBalanceInquiryOperation() {
  return {
    post: {
      operationId: "giftBalanceInquiry",
      summary: "Gift Balance Inquiry: records a transaction",
      parameters: [
        {
          name: "X-Request-Id",
          in: "header",
          required: true,
          description: "Unique per request; the transaction can be looked up by it.",
          schema: schemaWithExample(jsonSchema(requestIdSchema, "input"), SANDBOX_EXAMPLES.freshRequestId),
          example: SANDBOX_EXAMPLES.freshRequestId,
        },
      ],
      requestBody: cardBody,
      responses: {
        "201": {
          description: "Recorded (approved or declined).",
          content: jsonContent(componentRef("GiftBalanceResponse")),
        },
        ...ERRORS,
      },
    },
  };
}

function balanceInquiryOperation() {
  return {
    post: {
      operationId: "balanceInquiry",
      summary: "Balance Inquiry: every purse, records nothing",
      requestBody: cardBody,
      responses: {
        "200": { description: "The balances.", content: jsonContent(componentRef("BalanceResponse")) },
        ...ERRORS,
      },
    },
  };
}

function transactionLookupOperation() {
  return {
    get: {
      operationId: "lookupTransactionByRequestId",
      summary: "Lookup Transaction by Request Id (Gift Balance Inquiries only)",
      parameters: [
        {
          name: "request_id",
          in: "path",
          required: true,
          description: `A Gift Balance Inquiry's X-Request-Id; ${EXAMPLE_REQUEST_ID} is always found for a demo client.`,
          schema: schemaWithExample(jsonSchema(requestIdSchema, "input"), SANDBOX_EXAMPLES.lookupRequestId),
          example: SANDBOX_EXAMPLES.lookupRequestId,
        },
      ],
      responses: {
        "200": { description: "The transaction.", content: jsonContent(componentRef("LookupResponse")) },
        "404": errors("No transaction with this Request Id for this client."),
        ...ERRORS,
      },
    },
  };
}

/** The operation's example request, with the token, secrets and a Gift Balance Inquiry's Request Id left out. */
function sampleRequest(sandboxUrl: string, operation: OperationName): SampleRequest {
  const spec: OperationSpec = OPERATION_SPECS[operation];
  if (operation === "token") return tokenSampleRequest(`${sandboxUrl}${spec.path}`);
  const path = spec.path.replace("{request_id}", encodeURIComponent(EXAMPLE_REQUEST_ID));
  const headers: SampleRequest["headers"] = [["Authorization", BEARER]];
  if (!spec.takesCard) return { method: spec.method, url: `${sandboxUrl}${path}`, headers, body: null };
  headers.push(["Content-Type", JSON_MEDIA_TYPE]);
  if (operation === "gift_balance_inquiry") headers.push(["X-Request-Id", FRESH_UUID]);
  const body = JSON.stringify(cardRequestExample, null, 2);
  return { method: spec.method, url: `${sandboxUrl}${path}`, headers, body };
}

/** `x-codeSamples` (Redoc's and Scalar's convention) in every language of the generator. */
function codeSamples(sandboxUrl: string, operation: OperationName) {
  const request = sampleRequest(sandboxUrl, operation);
  return CODE_LANGUAGES.map((lang) => ({
    lang,
    label: CODE_LANGUAGE_LABELS[lang],
    source: codeSample(lang, request),
  }));
}

/** Each path's one operation, given its code samples. */
function withCodeSamples<Item extends Record<string, Record<string, unknown>>>(
  sandboxUrl: string,
  operation: OperationName,
  item: Item,
): Item {
  const [method, body] = Object.entries(item)[0]!;
  return { [method]: { ...body, "x-codeSamples": codeSamples(sandboxUrl, operation) } } as unknown as Item;
}

export function sandboxOpenApiDocument(options: SandboxDocumentOptions): Record<string, unknown> {
  const { sandboxUrl } = options;
  return {
    openapi: "3.1.0",
    info: {
      title: "Card Services API sandbox",
      version: "1",
      description:
        "The embedded sandbox of the Card Services Console: {auth_url} and {base_url} are both this server. " +
        "Demo clients: demo-client (and the others listed on the sandbox page), client_secret demo-secret unless " +
        "the server sets SANDBOX_DEMO_SECRET.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: sandboxUrl, description: "The Card Services sandbox" }],
    paths: {
      [OPERATION_SPECS.token.path]: withCodeSamples(sandboxUrl, "token", tokenOperation(options.demoSecret)),
      [OPERATION_SPECS.gift_balance_inquiry.path]: withCodeSamples(
        sandboxUrl,
        "gift_balance_inquiry",
        giftBalanceInquiryOperation(),
      ),
      [OPERATION_SPECS.balance_inquiry.path]: withCodeSamples(
        sandboxUrl,
        "balance_inquiry",
        balanceInquiryOperation(),
      ),
      [OPERATION_SPECS.transaction_lookup.path]: withCodeSamples(
        sandboxUrl,
        "transaction_lookup",
        transactionLookupOperation(),
      ),
    },
    security: [{ sandboxOAuth: ["read:transactions"] }],
    components: {
      schemas: COMPONENTS,
      securitySchemes: { sandboxOAuth: oauthScheme(sandboxUrl) },
    },
  };
}
