/**
 * What the sandbox's page (app/sandbox) and docs/reference/sandbox.md tell users: the choices made where the specification is
 * silent, and the worked example (written by the one code generator, lib/shared/code-samples.ts). Kept next to the implementation so that both change together.
 */
import { OPERATION_SPECS, TRANSACTIONS_SCOPE } from "@/lib/shared/operations";
import { MAX_BODY_BYTES, MAX_TRANSACTIONS } from "./limits";
import { DEMO_LOCATION_ID } from "@/lib/shared/sandbox-demo";
import {
  BEARER,
  CODE_LANGUAGES,
  FRESH_UUID,
  TOKEN_PRELUDE_LANGUAGES,
  codeSample,
  tokenSampleRequest,
  type CodeLanguage,
  type SampleRequest,
} from "@/lib/shared/code-samples";

/** The path templates of the operation registry, as the sandbox page shows them. */
export const SANDBOX_PATHS = {
  token: OPERATION_SPECS.token.path,
  giftBalanceInquiry: OPERATION_SPECS.gift_balance_inquiry.path,
  balanceInquiry: OPERATION_SPECS.balance_inquiry.path,
  transactionByRequestId: OPERATION_SPECS.transaction_lookup.path,
} as const;

/** One choice: a short title and the rule, in plain sentences (inline `code` in backticks). */
export interface SandboxChoice {
  title: string;
  rule: string;
}

export const SANDBOX_CHOICES: readonly SandboxChoice[] = [
  {
    title: "Scope",
    rule: `Both balance operations and the lookup need the scope \`${TRANSACTIONS_SCOPE}\`; without it they answer 403 \`insufficient_scope\` with \`WWW-Authenticate: Bearer error="insufficient_scope", scope="${TRANSACTIONS_SCOPE}"\`.`,
  },
  {
    title: "Error bodies",
    rule: 'Every error is a JSON:API error: `{"errors": [{"status", "code", "title", "detail"}]}`. A 401 also carries `WWW-Authenticate: Bearer error="invalid_token"`.',
  },
  {
    title: "Token request errors",
    rule: "400 with code `invalid_content_type` (not `application/json`), `invalid_json`, `invalid_request` (a field missing or not a string), `unsupported_grant_type`, or `invalid_client` (unknown client or wrong secret, deliberately not told apart). The secret is never echoed.",
  },
  {
    title: "Request Ids",
    rule: "A Gift Balance Inquiry without `X-Request-Id` is 400 `missing_request_id`; one whose `X-Request-Id` was already used is 409 `duplicate_request_id` and records nothing. Request Ids are unique per client (the client is the token's `sub`), at most 128 printable characters without spaces.",
  },
  {
    title: "Lookup by Request Id",
    rule: "`GET /transaction/v1/transactions/request-id/{request_id}` returns a recorded transaction of the token's client as `{data, meta: {request_id}}`, and 404 `transaction_not_found` otherwise: the specification's Lookup Transaction by Request Id, whose real path is not shown.",
  },
  {
    title: "Example lookup",
    rule: "`GET /transaction/v1/transactions/request-id/example-gift-balance-inquiry` always finds an approved Gift Balance Inquiry of card `6006491000000001` for a demo client: the example the OpenAPI document gives, so an imported lookup works at once.",
  },
  {
    title: "OAuth 2.0 form of the token request",
    rule: "The token endpoint also takes the grant as OAuth 2.0 clients send it (`application/x-www-form-urlencoded`, `grant_type=client_credentials`, the credentials in the body or in Basic auth) and answers it as they read it: `{access_token, token_type, expires_in, scope}` at the top, errors as `{error, error_description}`. Postman's, Insomnia's and Bruno's OAuth 2.0 helpers work with it.",
  },
  {
    title: "Card numbers",
    rule: "A card number is 12 to 19 digits (400 `invalid_request` otherwise). Unknown cards: Gift Balance Inquiry answers 201 `declined` `card_not_found`; Balance Inquiry answers 404 `card_not_found`.",
  },
  {
    title: "Order of checks",
    rule: "Token (401), then scope (403), then body (400), then `X-Request-Id` (400, 409), then the card.",
  },
  {
    title: "Declined inquiries",
    rule: 'A declined Gift Balance Inquiry is still a recorded 201 transaction, with `balance` `"0.00"`. Response codes: `transaction_approved`, `card_inactive`, `card_not_found`.',
  },
  {
    title: "Fields the specification leaves open",
    rule: '`target` is `{"scheme": "gift", "purse": "gift"}`; `timestamp` and `system_time` are ISO 8601 UTC with milliseconds; `originator` is echoed as sent. `entry_mode`, `pin_mode` and `location_id` accept any non-empty string up to 128 characters, and unknown fields are ignored.',
  },
  {
    title: "Tokens",
    rule: "HS256 JWTs with `iss`, `sub` (the client_id), `aud`, `iat`, `exp`, `scope` and `jti`. The signing key is random per process unless `SANDBOX_SIGNING_KEY` is set, so restarting the server invalidates earlier tokens (401: request a new one).",
  },
  {
    title: "Limits and state",
    rule: `Request bodies up to ${MAX_BODY_BYTES / 1024} KiB (413 beyond). Transactions live in memory: a restart forgets them, and beyond the newest ${MAX_TRANSACTIONS.toLocaleString("en-US")} the oldest are forgotten.`,
  },
  {
    title: "Certification clients",
    rule: "An integration certification (the console's Certification page, “Your application”) registers its own client (`cert-…`, scope `read:transactions`, tokens of 7200 s). Its calls are recorded for that certification, and its steps change answers for that client only: its tokens revoked, one Gift Balance Inquiry answered after 30 s, one inquiry answered 429 with `Retry-After: 2`. Nobody else's calls change.",
  },
];

const EXAMPLE_CLIENT_ID = "demo-client";
const EXAMPLE_CARD_NUMBER = "6006491000000001";

/** The worked example's Gift Balance Inquiry against `baseUrl` ({base_url}), for the one code generator. */
export function exampleGiftRequest(baseUrl: string, cardNumber = EXAMPLE_CARD_NUMBER): SampleRequest {
  const body = {
    data: {
      entry_mode: "keyed",
      card_number: cardNumber,
      pin_mode: "none",
      originator: { location_id: DEMO_LOCATION_ID },
    },
  };
  return {
    method: "POST",
    url: `${baseUrl}${SANDBOX_PATHS.giftBalanceInquiry}`,
    headers: [
      ["Authorization", BEARER],
      ["Content-Type", "application/json"],
      ["X-Request-Id", FRESH_UUID],
    ],
    body: JSON.stringify(body, null, 2),
  };
}

/** One language's worked example: the token request on its own where the inquiry cannot fetch it first. */
export interface WorkedExample {
  token: string | null;
  inquiry: string;
}

/**
 * The worked example in `language`, written by the Code panel's generator: a token for the demo client, then a
 * Gift Balance Inquiry with a fresh X-Request-Id. `secretNote` tells where CLIENT_SECRET's value comes from.
 */
export function workedExample(language: CodeLanguage, baseUrl: string, secretNote: string): WorkedExample {
  const tokenUrl = `${baseUrl}${SANDBOX_PATHS.token}`;
  const notes = [`CLIENT_ID=${EXAMPLE_CLIENT_ID}; CLIENT_SECRET: ${secretNote}`];
  const prelude = TOKEN_PRELUDE_LANGUAGES.has(language);
  return {
    token: prelude ? null : codeSample(language, tokenSampleRequest(tokenUrl), { notes }),
    inquiry: codeSample(language, exampleGiftRequest(baseUrl), prelude ? { tokenUrl, notes } : {}),
  };
}

/** The worked example in every language of the generator. */
export function workedExamples(baseUrl: string, secretNote: string): Record<CodeLanguage, WorkedExample> {
  return Object.fromEntries(
    CODE_LANGUAGES.map((language) => [language, workedExample(language, baseUrl, secretNote)]),
  ) as Record<CodeLanguage, WorkedExample>;
}
