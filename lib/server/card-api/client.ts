/**
 * The one typed client of the Card Services API (API specification §4). Addresses come only from its options (server
 * configuration); callers choose an operation, never a host or path. Every call has a timeout, and every
 * answer is returned whatever its status, with its body parsed against the spec's schema: an unexpected
 * shape is reported as issues next to the body, never hidden.
 *
 * What a call returns never holds a secret: the Authorization header and the client secret are redacted
 * in the request copy it keeps.
 */
import "server-only";
import type { z } from "zod";
import { operationPath, PathSegmentError } from "@/lib/shared/operations";
import { REDACTED } from "@/lib/shared/redaction";
import { ApiError } from "@/lib/server/util/errors";
import { validationError } from "@/lib/server/util/validation";
import {
  balanceResponseSchema,
  describeIssues,
  giftBalanceResponseSchema,
  tokenResponseSchema,
  transactionLookupResponseSchema,
  usableTokenSchema,
  type BalanceResponse,
  type CardRequest as CardRequestBody,
  type GiftBalanceResponse,
  type TokenResponse,
  type TransactionLookupResponse,
} from "./schemas";
import { classifyTransportError, UpstreamFailure, type Transport, type UpstreamResponse } from "./transport";

export interface CardApiClientOptions {
  transport: Transport;
  /** `{auth_url}` without a trailing slash. */
  authUrl: string;
  /** `{base_url}` without a trailing slash. */
  baseUrl: string;
  timeoutMs: number;
}

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** API specification §2.3: the `data` of a card request. */
export type CardRequest = CardRequestBody["data"];

/** One HTTP exchange as it happened, with secrets already redacted from the request copy. */
export interface RawExchange {
  request: { method: string; url: string; headers: Record<string, string>; body: unknown };
  response: UpstreamResponse;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
}

/** The answer's body: parsed JSON (or the text when it is not JSON), and its check against the spec. */
export interface BodyCheck<T> {
  isJson: boolean;
  /** Parsed JSON, or the raw text when `isJson` is false. */
  value: unknown;
  /** The typed body when it is a 2xx answer matching the spec's schema; null otherwise. */
  data: T | null;
  /** Schema issues of a 2xx answer (empty for non-2xx: the spec does not show error bodies). */
  issues: string[];
}

/** A call of a card operation: the client turns it into its request (API specification §4.2). */
export interface CardCall {
  operation: "gift_balance_inquiry" | "balance_inquiry" | "transaction_lookup";
  /** The card of both inquiries; a lookup has none. */
  card?: CardRequest;
  /** X-Request-Id of a Gift Balance Inquiry, or the id a lookup looks up. */
  requestId?: string;
  /**
   * A free-form request (docs/design.md §4 `POST /api/requests`): these headers and this body as they are, to the
   * operation's address and path, with the token; the caller checked the headers (none is Authorization).
   */
  raw?: { headers: Record<string, string>; body?: string };
}

/** A request ready to send, and the copy of it its record keeps (secrets redacted). */
interface PreparedRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  shown: { headers: Record<string, string>; body: unknown };
}

export interface ApiResult<T> {
  exchange: RawExchange;
  check: BodyCheck<T>;
}

export interface TokenGrant {
  accessToken: string;
  tokenType: string;
  scope: string;
  expiresIn: number;
  meta: Record<string, unknown> | null;
  jsonapi: Record<string, unknown> | null;
}

export interface CardApiClient {
  readonly urls: {
    token: string;
    giftBalanceInquiry: string;
    balanceInquiry: string;
    transactionByRequestId(requestId: string): string;
  };
  /** The request of a card call with `accessToken` (null sends no Authorization header). */
  prepare(call: CardCall, accessToken: string | null): PreparedRequest;
  /** Sends a prepared request: the answer whatever its status, or UpstreamFailure when none came. */
  send(request: PreparedRequest): Promise<RawExchange>;
  requestToken(
    credentials: ClientCredentials,
  ): Promise<ApiResult<TokenResponse> & { grant: TokenGrant | null }>;
  giftBalanceInquiry(input: {
    accessToken: string | null;
    requestId: string;
    card: CardRequest;
  }): Promise<ApiResult<GiftBalanceResponse>>;
  /** `requestId` is optional: the spec's Balance Inquiry takes none (certification sends one to prove API specification §4.4.3). */
  balanceInquiry(input: {
    accessToken: string | null;
    card: CardRequest;
    requestId?: string;
  }): Promise<ApiResult<BalanceResponse>>;
  /** Lookup Transaction by Request Id (API specification §4.3 item 3): a GET, nothing recorded upstream. */
  transactionByRequestId(input: {
    accessToken: string | null;
    requestId: string;
  }): Promise<ApiResult<TransactionLookupResponse>>;
  /**
   * A token request with a body chosen by the caller (certification's malformed-request cases, API specification §7).
   * The body must not hold a secret unless it is JSON, whose client_secret is redacted in the copy kept.
   */
  requestTokenWithBody(body: string): Promise<ApiResult<TokenResponse>>;
}

/** Parses a body and checks it against the schema for successful (2xx) answers only. */
export function checkBody<T>(response: UpstreamResponse, schema: z.ZodType<T>): BodyCheck<T> {
  const isSuccess = response.status >= 200 && response.status < 300;
  const truncated = response.truncated ? ["(body): cut at 1 MiB; the upstream sent more"] : [];
  let value: unknown;
  try {
    value = JSON.parse(response.body);
  } catch {
    const issues = isSuccess ? ["(body): expected JSON, got text"] : [];
    return { isJson: false, value: response.body, data: null, issues: [...truncated, ...issues] };
  }
  if (!isSuccess) return { isJson: true, value, data: null, issues: truncated };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { isJson: true, value, data: parsed.data, issues: truncated };
  return { isJson: true, value, data: null, issues: [...truncated, ...describeIssues(parsed.error)] };
}

const CARD_SCHEMAS = {
  gift_balance_inquiry: giftBalanceResponseSchema,
  balance_inquiry: balanceResponseSchema,
  transaction_lookup: transactionLookupResponseSchema,
} satisfies Record<CardCall["operation"], z.ZodType>;

export function checkCardAnswer(operation: CardCall["operation"], response: UpstreamResponse) {
  return checkBody<unknown>(response, CARD_SCHEMAS[operation]);
}

/** Extracts a usable token from a 2xx token answer, even one with minor shape issues; null otherwise. */
function tokenGrant(response: UpstreamResponse, check: BodyCheck<TokenResponse>): TokenGrant | null {
  if (response.status < 200 || response.status >= 300 || !check.isJson) return null;
  const usable = usableTokenSchema.safeParse(check.value);
  if (!usable.success) return null;
  const { attributes } = usable.data.data;
  return {
    accessToken: attributes.access_token,
    tokenType: attributes.token_type ?? "Bearer",
    scope: attributes.scope ?? "",
    expiresIn: Math.floor(attributes.expires_in),
    meta: usable.data.meta ?? null,
    jsonapi: usable.data.jsonapi ?? null,
  };
}

/** The client's `send`: one request with the timeout, resolved with the answer or rejected with UpstreamFailure. */
const sender =
  ({ transport, timeoutMs }: Pick<CardApiClientOptions, "transport" | "timeoutMs">) =>
  async ({ method, url, headers, body, shown }: PreparedRequest): Promise<RawExchange> => {
    const controller = new AbortController();
    const startedAt = Date.now();
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A transport that ignores the signal still cannot hold the caller past the timeout.
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const failure = new UpstreamFailure(
          "timeout",
          undefined,
          `The upstream did not answer within ${timeoutMs} ms.`,
        );
        controller.abort(failure);
        reject(failure);
      }, timeoutMs);
    });
    const sending = transport({ method, url, headers, body, signal: controller.signal });
    sending.catch(() => undefined);
    try {
      const response = await Promise.race([sending, timedOut]);
      return {
        request: { method, url, ...shown },
        response,
        startedAt,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      };
    } catch (error) {
      if (controller.signal.aborted && controller.signal.reason instanceof UpstreamFailure) {
        throw controller.signal.reason;
      }
      // Refused before anything was sent (./transport): the caller's request, not the upstream, is at fault.
      if (error instanceof ApiError) throw error;
      throw classifyTransportError(error);
    } finally {
      clearTimeout(timer);
    }
  };

/** A null token sends no Authorization header at all (certification's "no token" case). */
function cardHeaders(accessToken: string | null, requestId?: string) {
  const common = { "Content-Type": "application/json", Accept: "application/json" };
  const withId: Record<string, string> = requestId === undefined ? {} : { "X-Request-Id": requestId };
  if (accessToken === null) return { sent: { ...common, ...withId }, shown: { ...common, ...withId } };
  return {
    sent: { ...common, Authorization: `Bearer ${accessToken}`, ...withId },
    shown: { ...common, Authorization: `Bearer ${REDACTED}`, ...withId },
  };
}

/** A token request's headers: a new object per request, since the record keeps the one it was sent with. */
const tokenHeaders = (): Record<string, string> => ({
  "Content-Type": "application/json; charset=utf-8",
  Accept: "application/json",
});

/** A caller-chosen token body as its record keeps it: a JSON client_secret redacted, anything else as sent. */
function shownTokenBody(body: string): unknown {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) && "client_secret" in parsed
      ? { ...parsed, client_secret: REDACTED }
      : parsed;
  } catch {
    // Not JSON (deliberately malformed): kept as the text that was sent.
    return body;
  }
}

/** A card call's request as the specification shows it (API specification §4.2). */
function prepareCard(
  urls: CardApiClient["urls"],
  { operation, card, requestId }: CardCall,
  accessToken: string | null,
): PreparedRequest {
  if (operation === "transaction_lookup") {
    // The general form of API specification §4.2, Content-Type included; the id goes in the path, not a header.
    const { sent, shown } = cardHeaders(accessToken);
    const url = urls.transactionByRequestId(requestId ?? "");
    return { method: "GET", url, headers: sent, body: undefined, shown: { headers: shown, body: null } };
  }
  const { sent, shown } = cardHeaders(accessToken, requestId);
  const body = { data: card };
  const url = operation === "gift_balance_inquiry" ? urls.giftBalanceInquiry : urls.balanceInquiry;
  return { method: "POST", url, headers: sent, body: JSON.stringify(body), shown: { headers: shown, body } };
}

/** A free-form request: the caller's headers, then the token; its body sent byte for byte, shown as text. */
function prepareRaw(
  urls: CardApiClient["urls"],
  { operation, requestId = "", raw }: CardCall & { raw: NonNullable<CardCall["raw"]> },
  accessToken: string | null,
): PreparedRequest {
  const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });
  const headers = { ...raw.headers, ...(accessToken === null ? {} : bearer(accessToken)) };
  const shown = { ...raw.headers, ...(accessToken === null ? {} : bearer(REDACTED)) };
  const lookup = operation === "transaction_lookup";
  const url = lookup
    ? urls.transactionByRequestId(requestId)
    : operation === "gift_balance_inquiry"
      ? urls.giftBalanceInquiry
      : urls.balanceInquiry;
  const body = lookup ? undefined : (raw.body ?? "");
  return {
    method: lookup ? "GET" : "POST",
    url,
    headers,
    body,
    shown: { headers: shown, body: body ?? null },
  };
}

export function createCardApiClient(options: CardApiClientOptions): CardApiClient {
  const { authUrl, baseUrl } = options;
  const urls = {
    token: authUrl + operationPath("token"),
    giftBalanceInquiry: baseUrl + operationPath("gift_balance_inquiry"),
    balanceInquiry: baseUrl + operationPath("balance_inquiry"),
    transactionByRequestId: (requestId: string) => baseUrl + operationPath("transaction_lookup", requestId),
  };
  const send = sender(options);
  const prepare = (call: CardCall, accessToken: string | null): PreparedRequest => {
    let prepared: PreparedRequest;
    try {
      prepared = call.raw
        ? prepareRaw(urls, { ...call, raw: call.raw }, accessToken)
        : prepareCard(urls, call, accessToken);
    } catch (error) {
      if (error instanceof PathSegmentError) throw validationError({ request_id: [error.message] });
      throw error;
    }
    // The URL as a URL parser sends it (the transport parses it again): what the record shows is what was sent.
    return { ...prepared, url: new URL(prepared.url).href };
  };
  const post = (url: string, headers: Record<string, string>, body: string, shownBody: unknown) =>
    send({ method: "POST", url, headers, body, shown: { headers, body: shownBody } });

  return {
    urls,
    prepare,
    send,

    async requestToken({ clientId, clientSecret }) {
      const body = { client_id: clientId, client_secret: clientSecret, grant_type: "client_credentials" };
      const shown = { ...body, client_secret: REDACTED };
      const exchange = await post(urls.token, tokenHeaders(), JSON.stringify(body), shown);
      const check = checkBody(exchange.response, tokenResponseSchema);
      return { exchange, check, grant: tokenGrant(exchange.response, check) };
    },

    async giftBalanceInquiry({ accessToken, requestId, card }) {
      const exchange = await send(
        prepare({ operation: "gift_balance_inquiry", card, requestId }, accessToken),
      );
      return { exchange, check: checkBody(exchange.response, giftBalanceResponseSchema) };
    },

    async requestTokenWithBody(body) {
      const exchange = await post(urls.token, tokenHeaders(), body, shownTokenBody(body));
      return { exchange, check: checkBody(exchange.response, tokenResponseSchema) };
    },

    async balanceInquiry({ accessToken, card, requestId }) {
      const exchange = await send(prepare({ operation: "balance_inquiry", card, requestId }, accessToken));
      return { exchange, check: checkBody(exchange.response, balanceResponseSchema) };
    },

    async transactionByRequestId({ accessToken, requestId }) {
      const exchange = await send(prepare({ operation: "transaction_lookup", requestId }, accessToken));
      return { exchange, check: checkBody(exchange.response, transactionLookupResponseSchema) };
    },
  };
}
