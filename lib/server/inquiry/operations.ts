/**
 * What the console's routes do with a token source (lib/server/card-api/token-source): describe it, request a
 * token, run the two balance inquiries, look a transaction up. Each returns what the route sends back; the
 * source keeps the token it ends with (the cookie session writes its cookie only when it changed). Everything
 * they call (configuration, token broker, card API clients) comes in as `InquiryDeps`.
 *
 * Retry rule (spec §5.8, §4.3): after a 401 the token is renewed once and the call retried once, with the
 * same X-Request-Id (or, for a lookup, the same GET). Nothing else is ever retried: a Gift Balance Inquiry records a transaction.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type {
  balanceInquiryInputSchema,
  EnvironmentName,
  ExchangeRecord,
  OperationName,
  SessionInfo,
  TokenResult,
} from "@/lib/shared/contracts";
import type { EnvironmentChangedDetails, NoAnswerDetails } from "@/lib/shared/error-details";
import type { InquiryOperation } from "@/lib/shared/operations";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import type { AccessToken } from "@/lib/server/session";
import { withToken, type AuthorizedResult } from "@/lib/server/card-api/authorized-call";
import type { ApiResult, CardApiClient, CardRequest } from "@/lib/server/card-api/client";
import { describeEnvironments } from "@/lib/server/card-api/environments";
import { buildExchangeRecord } from "@/lib/server/card-api/exchange-record";
import type { ObtainedToken, TokenBroker } from "@/lib/server/card-api/token-broker";
import { tokenMetadata } from "@/lib/server/card-api/token-metadata";
import { boundToken, tokenContext, type TokenSource } from "@/lib/server/card-api/token-source";
import { UpstreamFailure } from "@/lib/server/card-api/transport";

/** A validated inquiry body with defaults applied (contracts' schemas). */
export type InquiryInput = z.output<typeof balanceInquiryInputSchema> & { request_id?: string };

/** What the operations call, handed in by their caller (built once, lib/server/inquiry/deps). */
export interface InquiryDeps {
  config: ServerConfig;
  broker: TokenBroker;
  /** The card API client of an environment. */
  clientFor(environment: EnvironmentConfig): CardApiClient;
}

/** 409 `environment_changed` when the call names another environment than the source's. */
function assertEnvironment(source: TokenSource, expected: EnvironmentName | undefined): void {
  const actual = source.environment.name;
  if (expected === undefined || expected === actual) return;
  const details: EnvironmentChangedDetails = { session_environment: actual, requested_environment: expected };
  throw new ApiError(
    "environment_changed",
    `The session's environment is now ${actual}, not ${expected} (it was switched, perhaps in ` +
      "another tab): nothing was sent. Check the environment and run again.",
    details,
  );
}

/**
 * GET /api/session's answer. `tokenDetails` says whether the caller may see token metadata in the session's
 * environment (the `token_details` action; support may not): without it, `token` is null.
 */
export function describeSession(
  deps: Pick<InquiryDeps, "config">,
  source: TokenSource & { readonly credentialsShown: SessionInfo["credentials"] },
  tokenDetails: (environment: EnvironmentName) => boolean,
): SessionInfo {
  const token = tokenDetails(source.environment.name) ? boundToken(source) : undefined;
  return {
    environment: source.environment.name,
    environments: describeEnvironments(deps.config),
    credentials: source.credentialsShown,
    token: token ? metadataOrNull(token) : null,
  };
}

/** GET /api/session must answer whatever a session holds: a token it cannot describe is shown as none. */
function metadataOrNull(token: AccessToken) {
  try {
    return tokenMetadata(token);
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : String(error) }, "token metadata failed");
    return null;
  }
}

function upstreamError(
  failure: UpstreamFailure,
  operation: OperationName,
  url: string,
  extra: Pick<NoAnswerDetails, "request_id">,
): ApiError {
  const details: NoAnswerDetails = {
    operation,
    url,
    ...extra,
    ...(failure.errorCode ? { cause: failure.errorCode } : {}),
  };
  switch (failure.kind) {
    case "timeout":
      return new ApiError("upstream_timeout", failure.message, details);
    case "tls":
      return new ApiError("upstream_tls_error", failure.message, details);
    default:
      return new ApiError("upstream_unreachable", failure.message, details);
  }
}

/** Runs an upstream call, turning "no answer" into 504/502 in the console's error shape. */
async function callUpstream<T>(
  call: () => Promise<T>,
  operation: OperationName,
  url: string,
  extra: Pick<NoAnswerDetails, "request_id"> = {},
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof UpstreamFailure) throw upstreamError(error, operation, url, extra);
    throw error;
  }
}

/** POST /api/token: a token request now; 200 with the exchange whenever the token endpoint answered. */
export async function requestTokenNow(deps: InquiryDeps, source: TokenSource): Promise<TokenResult> {
  const client = deps.clientFor(source.environment);
  const tokens = tokenContext(source, client);
  const previousToken = source.current()?.accessToken;
  const result = await callUpstream(() => deps.broker.requestNow(tokens), "token", client.urls.token);
  if (result.token) source.keep(result.token);
  const exchange = buildExchangeRecord({
    operation: "token",
    environment: source.environment.name,
    exchange: result.exchange,
    check: result.check,
    secrets: [tokens.credentials.clientSecret, previousToken, result.token?.accessToken],
  });
  return { token: result.token ? tokenMetadata(result.token) : null, exchange };
}

/** The driver of every authorized call here: the shared one, with "no answer" from the token endpoint shaped. */
function authorized(
  deps: InquiryDeps,
  source: TokenSource,
  client: CardApiClient,
  send: (token: AccessToken) => Promise<ApiResult<unknown>>,
): Promise<AuthorizedResult> {
  const guardToken = (get: () => Promise<ObtainedToken>) => callUpstream(get, "token", client.urls.token);
  return withToken({ broker: deps.broker, source, client, guardToken }, send);
}

export async function runInquiry(
  deps: InquiryDeps,
  source: TokenSource,
  operation: InquiryOperation,
  input: InquiryInput,
): Promise<ExchangeRecord> {
  const started = performance.now();
  assertEnvironment(source, input.environment);
  const client = deps.clientFor(source.environment);
  const card: CardRequest = {
    entry_mode: input.entry_mode,
    card_number: input.card_number,
    pin_mode: input.pin_mode,
    originator: { location_id: input.location_id },
  };
  const requestId = operation === "gift_balance_inquiry" ? (input.request_id ?? randomUUID()) : undefined;
  const url =
    operation === "gift_balance_inquiry" ? client.urls.giftBalanceInquiry : client.urls.balanceInquiry;
  const failureDetails = requestId === undefined ? {} : { request_id: requestId };

  const send = (token: AccessToken): Promise<ApiResult<unknown>> =>
    callUpstream<ApiResult<unknown>>(
      () =>
        requestId === undefined
          ? client.balanceInquiry({ accessToken: token.accessToken, card })
          : client.giftBalanceInquiry({ accessToken: token.accessToken, requestId, card }),
      operation,
      url,
      failureDetails,
    );

  const done = await authorized(deps, source, client, send);
  return authorizedRecord(operation, source, started, done, requestId);
}

/** One authorized call whose request its caller shapes (a free-form request, lib/server/inquiry/free-form). */
export interface AuthorizedCallSpec {
  operation: OperationName;
  /** The environment the page showed: 409 `environment_changed` when the session's is another. */
  environment?: EnvironmentName;
  requestId?: string;
  url(client: CardApiClient): string;
  send(client: CardApiClient, accessToken: string): Promise<ApiResult<unknown>>;
}

export async function runAuthorized(
  deps: InquiryDeps,
  source: TokenSource,
  spec: AuthorizedCallSpec,
): Promise<ExchangeRecord> {
  const started = performance.now();
  assertEnvironment(source, spec.environment);
  const client = deps.clientFor(source.environment);
  const url = spec.url(client);
  const failureDetails = spec.requestId === undefined ? {} : { request_id: spec.requestId };
  const send = (token: AccessToken) =>
    callUpstream(() => spec.send(client, token.accessToken), spec.operation, url, failureDetails);
  const done = await authorized(deps, source, client, send);
  return authorizedRecord(spec.operation, source, started, done, spec.requestId);
}

/**
 * GET /api/transactions/request-id/{id}: Lookup Transaction by Request Id (spec §4.3 item 3). A GET changes
 * nothing upstream, so the 401 retry of the driver is safe here too.
 */
export async function lookupTransaction(
  deps: InquiryDeps,
  source: TokenSource,
  requestId: string,
  expectedEnvironment?: EnvironmentName,
): Promise<ExchangeRecord> {
  const started = performance.now();
  assertEnvironment(source, expectedEnvironment);
  const client = deps.clientFor(source.environment);
  const url = client.urls.transactionByRequestId(requestId);
  const send = (token: AccessToken): Promise<ApiResult<unknown>> =>
    callUpstream<ApiResult<unknown>>(
      () => client.transactionByRequestId({ accessToken: token.accessToken, requestId }),
      "transaction_lookup",
      url,
      { request_id: requestId },
    );
  const done = await authorized(deps, source, client, send);
  return authorizedRecord("transaction_lookup", source, started, done, requestId);
}

function authorizedRecord(
  operation: OperationName,
  source: TokenSource,
  started: number,
  { result, events, secrets, tokenMs, retriedMs }: AuthorizedResult,
  requestId: string | undefined,
): ExchangeRecord {
  return buildExchangeRecord({
    operation,
    environment: source.environment.name,
    exchange: result.exchange,
    check: result.check,
    tokenEvents: events,
    requestId,
    secrets,
    timings: {
      total_ms: Math.round((performance.now() - started) * 10) / 10,
      token_ms: tokenMs,
      upstream_ms: result.exchange.durationMs,
      ...(retriedMs === undefined ? {} : { retried_ms: retriedMs }),
    },
  });
}

/** The fields of a run for the call's log line: what happened upstream, without secrets or card numbers. */
export function exchangeLogFields(record: ExchangeRecord): Record<string, unknown> {
  return {
    operation: record.operation,
    environment: record.environment,
    upstream_url: record.request.url,
    upstream_status: record.response.status,
    upstream_ms: record.duration_ms,
    ...(record.request_id === undefined ? {} : { request_id: record.request_id }),
    ...(record.token_events.length > 0
      ? { token_events: record.token_events.map((event) => event.type) }
      : {}),
    ...(record.response.schema_issues ? { schema_issues: record.response.schema_issues.length } : {}),
  };
}

/** An answered call's audit fields: the upstream's status and X-Request-Id; success when it answered 1xx–3xx. */
export function exchangeAuditFields(record: ExchangeRecord): {
  outcome: "success" | "failure";
  upstreamStatus: number;
  requestId?: string;
  environment: EnvironmentName;
} {
  const status = record.response.status;
  return {
    outcome: status < 400 ? "success" : "failure",
    upstreamStatus: Math.min(599, Math.max(100, status)),
    environment: record.environment,
    ...(record.request_id === undefined ? {} : { requestId: record.request_id }),
  };
}
