/** Routing and behaviour of the sandbox. State lives in memory per instance; see fixtures.ts for the seed. */
import { OPERATION_SPECS, matchOperationPath, type OperationName } from "@/lib/shared/operations";
import type { SandboxOptions, SandboxStats } from "./types";
import {
  DEFAULT_DEMO_SECRET,
  EXAMPLE_REQUEST_ID,
  findDemoClient,
  findTestCard,
  type DemoClient,
  type TestCard,
} from "./fixtures";

const EXAMPLE_CARD_NUMBER = "6006491000000001";
import { delay, errorResponse, jsonResponse, methodNotAllowed, readJsonBody } from "./http";

const isFormContentType = (value: string | null) =>
  (value ?? "").split(";")[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded";
import { MAX_TRANSACTIONS } from "./limits";
import { formatCents, formatPurses } from "./money";
import type { GiftBalanceResponse } from "@/lib/shared/card-api-schemas";
import { SANDBOX_HOOKS_PATH } from "./paths";
import {
  cardRequestSchema,
  firstIssue,
  requestIdSchema,
  tokenRequestSchema,
  type CardRequest,
} from "./schemas";
import type { SandboxClientPort } from "./registered-clients";
import { TokenService, type TokenClaims } from "./tokens";

const API_VERSION = "1.4.0";
const JSONAPI_VERSION = "1.0";

/** The data object of a Gift Balance Inquiry response (API specification §2.4). */
type GiftTransaction = GiftBalanceResponse["data"];

interface RecordedTransaction {
  requestId: string;
  clientId: string;
  transaction: GiftTransaction;
}

const NOT_JSON_BODY = "<html><body><h1>upstream maintenance</h1></body></html>";

/** Request Ids are unique per client: the token identifies the client (API specification §4.2). */
const requestIdKey = (clientId: string, requestId: string) => `${clientId}\n${requestId}`;

export class SandboxEngine {
  private readonly now: () => number;
  private readonly demoSecret: string;
  private readonly basePath: string;
  private readonly slowResponseMs: number;
  private readonly testHooks: boolean;
  private readonly maxTransactions: number;
  private readonly tokens: TokenService;
  private readonly clients: SandboxClientPort | undefined;
  /** Request Ids taken by a recorded transaction or by an inquiry still in progress. */
  private readonly reservedRequestIds = new Set<string>();
  private readonly transactions = new Map<string, RecordedTransaction>();
  private tokenRequests = 0;
  private requestCounter = 0;

  constructor(options: SandboxOptions) {
    this.now = options.now ?? Date.now;
    this.demoSecret = options.demoSecret ?? DEFAULT_DEMO_SECRET;
    this.basePath = (options.basePath ?? "").replace(/\/+$/, "");
    this.slowResponseMs = options.slowResponseMs ?? 30_000;
    this.testHooks = options.testHooks ?? false;
    this.maxTransactions = options.maxTransactions ?? MAX_TRANSACTIONS;
    this.tokens = new TokenService(options.signingKey ?? randomKey(), this.now);
    this.clients = options.clients;
  }

  /** Owner and issue time of a token this sandbox signed (for registered clients' attribution). */
  tokenOwner(token: string): Promise<{ clientId: string; issuedAtMs: number } | null> {
    return this.tokens.owner(token);
  }

  /** A token for a registered client with the lifetime given (fault certification's short-lived token). */
  async issueToken(
    client: { clientId: string; scopes: readonly string[] },
    seconds: number,
  ): Promise<string> {
    const issued = await this.tokens.issue({
      ...client,
      scopes: [...client.scopes],
      expiresIn: seconds,
      description: "",
    });
    return issued.accessToken;
  }

  reset(): void {
    this.tokens.revokeAll();
    this.reservedRequestIds.clear();
    this.transactions.clear();
    this.tokenRequests = 0;
  }

  revokeTokens(): void {
    this.tokens.revokeAll();
  }

  stats(): SandboxStats {
    return { tokenRequests: this.tokenRequests, transactions: this.transactions.size };
  }

  async handle(request: Request): Promise<Response> {
    try {
      return await this.route(request);
    } catch {
      return errorResponse(
        500,
        "internal_error",
        "Internal error",
        "The sandbox failed to process the request.",
      );
    }
  }

  private async route(request: Request): Promise<Response> {
    const path = this.localPath(request.url);
    const method = request.method.toUpperCase();
    if (path === null) return notFound();

    const endpoint = (allowed: readonly string[], run: () => Promise<Response> | Response) => {
      if (method === "OPTIONS")
        return new Response(null, { status: 204, headers: { Allow: allowed.join(", ") } });
      if (!allowed.includes(method)) return methodNotAllowed(method, allowed);
      return run();
    };

    const matched = matchOperationPath(path);
    if (matched) {
      return endpoint([OPERATION_SPECS[matched.operation].method], () => {
        switch (matched.operation) {
          case "token":
            return this.token(request);
          case "gift_balance_inquiry":
            return this.giftBalanceInquiry(request);
          case "balance_inquiry":
            return this.balanceInquiry(request);
          case "transaction_lookup":
            return this.transactionByRequestId(request, matched.encodedRequestId ?? "");
        }
      });
    }
    if (this.testHooks && path.startsWith(SANDBOX_HOOKS_PATH)) {
      return this.hook(path.slice(SANDBOX_HOOKS_PATH.length), method);
    }
    return notFound();
  }

  /** The path below basePath, or null when the URL is outside it. */
  localPath(url: string): string | null {
    const { pathname } = new URL(url);
    if (!this.basePath) return pathname;
    if (pathname === this.basePath) return "/";
    return pathname.startsWith(`${this.basePath}/`) ? pathname.slice(this.basePath.length) : null;
  }

  // ---------- token (API specification §4.1, §2.2) ----------

  private async token(request: Request): Promise<Response> {
    this.tokenRequests += 1;
    if (isFormContentType(request.headers.get("content-type"))) return this.oauthFormToken(request);
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    if (typeof body.value !== "object" || body.value === null || Array.isArray(body.value)) {
      return invalidRequest("The body must be a JSON object with client_id, client_secret and grant_type.");
    }
    const parsed = tokenRequestSchema.safeParse(body.value);
    if (!parsed.success) return invalidRequest(firstIssue(parsed.error));
    const { client_id: clientId, client_secret: clientSecret, grant_type: grantType } = parsed.data;
    if (grantType !== "client_credentials") {
      return errorResponse(
        400,
        "unsupported_grant_type",
        "Unsupported grant type",
        "grant_type must be client_credentials.",
      );
    }
    const client = await this.authenticateClient(clientId, clientSecret);
    if (!client) {
      return errorResponse(
        400,
        "invalid_client",
        "Invalid client",
        "Unknown client_id or wrong client_secret.",
      );
    }
    const issued = await this.tokens.issue(client);
    return jsonResponse(200, {
      data: {
        type: "oauth-token",
        id: issued.jti,
        attributes: {
          access_token: issued.accessToken,
          token_type: "Bearer",
          expires_in: issued.expiresIn,
          scope: issued.scope,
        },
      },
      meta: { timestamp: this.isoNow(), request_id: this.nextRequestId(), version: API_VERSION },
      jsonapi: { version: JSONAPI_VERSION },
    });
  }

  /**
   * The same grant as OAuth 2.0 clients send it (RFC 6749 §4.4: a form body, the credentials in it or in Basic
   * auth) and answered as they read it (`access_token` at the top): what Postman's, Insomnia's and Bruno's
   * OAuth 2.0 helpers do with the documents' `clientCredentials` scheme. The specification is silent on it.
   */
  private async oauthFormToken(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [];
    const clientId = form.get("client_id") ?? (basicId ? decodeURIComponent(basicId) : "");
    const clientSecret = form.get("client_secret") ?? (basicSecret ? decodeURIComponent(basicSecret) : "");
    const refuse = (error: string, description: string) =>
      jsonResponse(400, { error, error_description: description });
    if (form.get("grant_type") !== "client_credentials") {
      return refuse("unsupported_grant_type", "grant_type must be client_credentials.");
    }
    const client = await this.authenticateClient(clientId, clientSecret);
    if (!client) {
      return refuse("invalid_client", "Unknown client_id or wrong client_secret.");
    }
    const issued = await this.tokens.issue(client);
    return jsonResponse(200, {
      access_token: issued.accessToken,
      token_type: "Bearer",
      expires_in: issued.expiresIn,
      scope: issued.scope,
    });
  }

  /** A demo client with the demo secret, or a client registered through the port; the same for both grants. */
  private async authenticateClient(clientId: string, secret: string): Promise<DemoClient | undefined> {
    const demo = findDemoClient(clientId);
    // Compare the secret even for an unknown client, so that both failures take the same path.
    const secretMatches = constantTimeEqual(secret, this.demoSecret);
    if (demo) return secretMatches ? demo : undefined;
    return this.registeredClient(clientId, secret);
  }

  /** A client registered through the port (integration certification), as a demo client for issuing tokens. */
  private async registeredClient(clientId: string, secret: string): Promise<DemoClient | undefined> {
    const found = await this.clients?.authenticate(clientId, secret);
    if (!found) return undefined;
    return { clientId: found.clientId, scopes: found.scopes, expiresIn: found.expiresIn, description: "" };
  }

  // ---------- authenticated calls (API specification §4.2, §5, §7) ----------

  /** 401 for a missing or bad token, 403 without the operation's scope (read:transactions); else the token's claims. */
  private async authorize(
    request: Request,
    operation: OperationName,
  ): Promise<{ ok: true; claims: TokenClaims } | { ok: false; response: Response }> {
    const header = request.headers.get("authorization");
    const match = header ? /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i.exec(header) : null;
    if (!header)
      return {
        ok: false,
        response: invalidToken("The Authorization header with a Bearer token is missing."),
      };
    if (!match?.[1])
      return {
        ok: false,
        response: invalidToken("The Authorization header is not of the form Bearer <token>."),
      };
    const verified = await this.tokens.verify(match[1]);
    if (!verified.ok) return { ok: false, response: invalidToken(verified.reason) };
    const scope = OPERATION_SPECS[operation].requiredScope;
    if (scope !== null && !verified.claims.scopes.includes(scope)) {
      return {
        ok: false,
        response: errorResponse(
          403,
          "insufficient_scope",
          "Insufficient scope",
          `The access token lacks the scope ${scope}.`,
          { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}"` },
        ),
      };
    }
    return { ok: true, claims: verified.claims };
  }

  private async readCardRequest(
    request: Request,
  ): Promise<{ ok: true; value: CardRequest } | { ok: false; response: Response }> {
    const body = await readJsonBody(request);
    if (!body.ok) return body;
    const parsed = cardRequestSchema.safeParse(body.value);
    if (!parsed.success) return { ok: false, response: invalidRequest(firstIssue(parsed.error)) };
    return { ok: true, value: parsed.data };
  }

  // ---------- Gift Balance Inquiry (API specification §4.3, §2.4) ----------

  private async giftBalanceInquiry(request: Request): Promise<Response> {
    const auth = await this.authorize(request, "gift_balance_inquiry");
    if (!auth.ok) return auth.response;
    const body = await this.readCardRequest(request);
    if (!body.ok) return body.response;

    const requestId = request.headers.get("x-request-id");
    if (requestId === null || requestId.trim() === "") {
      return errorResponse(
        400,
        "missing_request_id",
        "Missing X-Request-Id",
        "Send a unique X-Request-Id header.",
      );
    }
    if (!requestIdSchema.safeParse(requestId).success) {
      return errorResponse(
        400,
        "invalid_request_id",
        "Invalid X-Request-Id",
        "X-Request-Id must be 1 to 128 printable characters without spaces.",
      );
    }
    // Reserved synchronously, before any await: concurrent requests with one id cannot both pass.
    const key = requestIdKey(auth.claims.clientId, requestId);
    if (this.reservedRequestIds.has(key)) {
      return errorResponse(
        409,
        "duplicate_request_id",
        "Duplicate X-Request-Id",
        "This X-Request-Id was already used; send a new one for each Gift Balance Inquiry.",
      );
    }
    this.reservedRequestIds.add(key);

    const { data } = body.value;
    const card = findTestCard(data.card_number);
    const fault = await this.cardFault(card, request.signal);
    if (fault) {
      // Nothing was recorded: the Request Id may be used again (e.g. a retry after 429).
      this.reservedRequestIds.delete(key);
      return fault;
    }

    const outcome = giftOutcome(card);
    const transaction: GiftTransaction = {
      transaction_id: crypto.randomUUID(),
      external_id: crypto.randomUUID(),
      entry_mode: data.entry_mode,
      card_number: data.card_number,
      pin_mode: data.pin_mode,
      pin_verification_result: "none",
      transaction_type: "gift_balance_inquiry",
      ...outcome,
      originator: data.originator,
      target: { scheme: "gift", purse: "gift" },
      timestamp: this.isoNow(),
    };
    this.record(key, { requestId, clientId: auth.claims.clientId, transaction });
    // The not-JSON card still records the transaction: the upstream processed it, only the answer is garbled,
    // and Lookup by Request Id is how a client finds out what happened.
    if (card?.behaviour === "not_json") return notJson(201);
    return jsonResponse(201, { data: transaction });
  }

  /** Keeps the newest `maxTransactions`: a long-running console must not grow without bound. */
  private record(key: string, recorded: RecordedTransaction): void {
    this.transactions.set(key, recorded);
    if (this.transactions.size <= this.maxTransactions) return;
    const oldest = this.transactions.keys().next().value;
    if (oldest === undefined) return;
    this.transactions.delete(oldest);
    this.reservedRequestIds.delete(oldest);
  }

  // ---------- Balance Inquiry (API specification §4.4, §2.5) ----------

  private async balanceInquiry(request: Request): Promise<Response> {
    const auth = await this.authorize(request, "balance_inquiry");
    if (!auth.ok) return auth.response;
    const body = await this.readCardRequest(request);
    if (!body.ok) return body.response;

    const { card_number: cardNumber } = body.value.data;
    const card = findTestCard(cardNumber);
    if (!card) {
      return errorResponse(404, "card_not_found", "Card not found", "No card with this number exists.");
    }
    const fault = await this.cardFault(card, request.signal);
    if (fault) return fault;
    if (card.behaviour === "not_json") return notJson(200);
    return jsonResponse(200, {
      data: { card_number: cardNumber, system_time: this.isoNow(), balances: formatPurses(card.purses) },
    });
  }

  // ---------- Lookup Transaction by Request Id ----------

  private async transactionByRequestId(request: Request, encodedRequestId: string): Promise<Response> {
    const auth = await this.authorize(request, "transaction_lookup");
    if (!auth.ok) return auth.response;
    let requestId: string;
    try {
      requestId = decodeURIComponent(encodedRequestId);
    } catch {
      return invalidRequest("The Request Id in the path is not valid percent-encoding.");
    }
    const recorded =
      this.transactions.get(requestIdKey(auth.claims.clientId, requestId)) ??
      this.exampleTransaction(auth.claims.clientId, requestId);
    if (!recorded) {
      return errorResponse(
        404,
        "transaction_not_found",
        "Transaction not found",
        "No transaction of this client has this Request Id.",
      );
    }
    return jsonResponse(200, { data: recorded.transaction, meta: { request_id: recorded.requestId } });
  }

  /** The documents' example lookup (EXAMPLE_REQUEST_ID) for a demo client: found until a real one takes its id. */
  private exampleTransaction(clientId: string, requestId: string): RecordedTransaction | undefined {
    const card = findTestCard(EXAMPLE_CARD_NUMBER);
    if (requestId !== EXAMPLE_REQUEST_ID || !findDemoClient(clientId) || !card) return undefined;
    const transaction: GiftTransaction = {
      transaction_id: "00000000-0000-4000-8000-000000000001",
      external_id: "00000000-0000-4000-8000-000000000002",
      entry_mode: "keyed",
      card_number: EXAMPLE_CARD_NUMBER,
      pin_mode: "none",
      pin_verification_result: "none",
      transaction_type: "gift_balance_inquiry",
      ...giftOutcome(card),
      originator: { location_id: "store-001" },
      target: { scheme: "gift", purse: "gift" },
      timestamp: "2026-01-01T00:00:00.000Z",
    };
    return { requestId, clientId, transaction };
  }

  // ---------- fault cards ----------

  /** The response a fault card forces (500, 429), after the slow card's delay; undefined to answer normally. */
  private async cardFault(card: TestCard | undefined, signal: AbortSignal): Promise<Response | undefined> {
    switch (card?.behaviour) {
      case "server_error":
        return errorResponse(500, "internal_error", "Internal error", "The card service failed (test card).");
      case "rate_limited":
        return errorResponse(
          429,
          "rate_limited",
          "Too many requests",
          "Slow down and retry after 2 seconds.",
          {
            "Retry-After": "2",
          },
        );
      case "slow":
        try {
          await delay(this.slowResponseMs, signal);
        } catch {
          // The client went away: nothing is recorded, and nobody reads this answer.
          return errorResponse(
            499,
            "client_closed_request",
            "Client closed request",
            "The request was aborted.",
          );
        }
        return undefined;
      default:
        return undefined;
    }
  }

  // ---------- test hooks ----------

  private hook(name: string, method: string): Response {
    if (name === "revoke-tokens" || name === "reset") {
      if (method !== "POST") return methodNotAllowed(method, ["POST"]);
      if (name === "reset") this.reset();
      else this.revokeTokens();
      return new Response(null, { status: 204 });
    }
    if (name === "stats") {
      if (method !== "GET") return methodNotAllowed(method, ["GET"]);
      const { tokenRequests, transactions } = this.stats();
      return jsonResponse(200, { token_requests: tokenRequests, transactions });
    }
    return notFound();
  }

  // ---------- helpers ----------

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  /** `req-<number>-<suffix>` (API specification §2.2). */
  private nextRequestId(): string {
    this.requestCounter += 1;
    return `req-${this.now()}${String(this.requestCounter).padStart(4, "0")}-${randomHex(4)}`;
  }
}

function giftOutcome(
  card: TestCard | undefined,
): Pick<GiftTransaction, "response_status" | "response_code" | "response_message" | "balance"> {
  if (!card) {
    return {
      response_status: "declined",
      response_code: "card_not_found",
      response_message: "Card not found",
      balance: "0.00",
    };
  }
  if (card.behaviour === "inactive") {
    return {
      response_status: "declined",
      response_code: "card_inactive",
      response_message: "Card inactive",
      balance: "0.00",
    };
  }
  return {
    response_status: "approved",
    response_code: "transaction_approved",
    response_message: "Approved",
    balance: formatCents(card.purses.gift),
  };
}

function notFound(): Response {
  return errorResponse(404, "not_found", "Not found", "No sandbox endpoint has this path.");
}

function invalidRequest(detail: string): Response {
  return errorResponse(400, "invalid_request", "Invalid request", detail);
}

function invalidToken(detail: string): Response {
  return errorResponse(401, "invalid_token", "Invalid token", detail, {
    "WWW-Authenticate": `Bearer error="invalid_token", error_description="${detail.replace(/["\\]/g, "")}"`,
  });
}

function notJson(status: number): Response {
  return new Response(NOT_JSON_BODY, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
}

function randomKey(): string {
  return randomHex(32);
}

/** Equality whose running time depends only on the lengths, not on where the strings differ. */
function constantTimeEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let difference = left.length ^ right.length;
  for (let index = 0; index < left.length; index += 1)
    difference |= left[index]! ^ (right[index % Math.max(right.length, 1)] ?? 0);
  return difference === 0;
}
