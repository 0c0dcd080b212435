/**
 * What the console's routes do with a session: describe it, request a token, run the two balance
 * inquiries. Each returns what the route sends back; the session is updated in place (the route writes
 * the cookie only when it changed).
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
  TokenEvent,
  TokenResult,
} from "@/lib/shared/contracts";
import type { EnvironmentChangedDetails, NoAnswerDetails } from "@/lib/shared/error-details";
import type { InquiryOperation } from "@/lib/shared/operations";
import type { EnvironmentConfig, ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import { Session, type AccessToken, type SessionContext, type SessionState } from "@/lib/server/session";
import { credentialsKey, describeCredentials, resolveCredentials } from "@/lib/server/session/credentials";
import type { ApiResult, CardApiClient, CardRequest } from "@/lib/server/card-api/client";
import { currentEnvironment, describeEnvironments } from "@/lib/server/card-api/environments";
import { buildExchangeRecord } from "@/lib/server/card-api/exchange-record";
import type { TokenBroker, TokenContext } from "@/lib/server/card-api/token-broker";
import { tokenMetadata } from "@/lib/server/card-api/token-metadata";
import { UpstreamFailure } from "@/lib/server/card-api/transport";

/** A validated inquiry body with defaults applied (contracts' schemas). */
export type InquiryInput = z.output<typeof balanceInquiryInputSchema> & { request_id?: string };

// Composition root: the configuration, the one token broker and the upstream clients come from
// lib/server/root (`inquiryDeps`), passed in by the caller.
export interface InquiryDeps {
  config: ServerConfig;
  tokenBroker: TokenBroker;
  upstream(environment: EnvironmentConfig): CardApiClient;
}

interface Context {
  config: ServerConfig;
  environment: EnvironmentConfig;
  client: CardApiClient;
  broker: TokenBroker;
}

function context(deps: InquiryDeps, session: Session, expected?: EnvironmentName): Context {
  const { config } = deps;
  const environment = currentEnvironment(config, session.state.environment);
  if (expected !== undefined && expected !== environment.name) {
    const details: EnvironmentChangedDetails = {
      session_environment: environment.name,
      requested_environment: expected,
    };
    throw new ApiError(
      "environment_changed",
      `The session's environment is now ${environment.name}, not ${expected} (it was switched, perhaps in ` +
        "another tab): nothing was sent. Check the environment and run again.",
      details,
    );
  }
  return { config, environment, client: deps.upstream(environment), broker: deps.tokenBroker };
}

function tokenContext({ config, environment, client }: Context, session: Session): TokenContext {
  const resolution = resolveCredentials(session.state, config, environment);
  if (!resolution.ok) throw new ApiError("no_credentials", resolution.message);
  const { credentials } = resolution;
  return {
    client,
    environment: environment.name,
    credentials,
    credentialsKey: credentialsKey(credentials, environment),
  };
}

/** The session's token when it belongs to its current credentials and environment's token endpoint. */
function currentToken(session: Session, ctx: Context): AccessToken | undefined {
  const { token } = session.state;
  if (!token) return undefined;
  const resolution = resolveCredentials(session.state, ctx.config, ctx.environment);
  if (!resolution.ok) return undefined;
  return token.credentialsKey === credentialsKey(resolution.credentials, ctx.environment) ? token : undefined;
}

/**
 * GET /api/session's answer. `tokenDetails` says whether the caller may see token metadata in the session's
 * environment (the `token_details` action; support may not): without it, `token` is null.
 */
export function describeSession(
  deps: InquiryDeps,
  session: Session,
  tokenDetails: (environment: EnvironmentName) => boolean,
): SessionInfo {
  const ctx = context(deps, session);
  const token = tokenDetails(ctx.environment.name) ? currentToken(session, ctx) : undefined;
  return {
    environment: ctx.environment.name,
    environments: describeEnvironments(ctx.config),
    credentials: describeCredentials(session.state, ctx.config),
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
export async function requestTokenNow(deps: InquiryDeps, session: Session): Promise<TokenResult> {
  const ctx = context(deps, session);
  const tokens = tokenContext(ctx, session);
  const previousToken = session.state.token?.accessToken;
  const result = await callUpstream(() => ctx.broker.requestNow(tokens), "token", ctx.client.urls.token);
  if (result.token) session.update({ token: result.token });
  const exchange = buildExchangeRecord({
    operation: "token",
    environment: ctx.environment.name,
    exchange: result.exchange,
    check: result.check,
    secrets: [tokens.credentials.clientSecret, previousToken, result.token?.accessToken],
  });
  return { token: result.token ? tokenMetadata(result.token) : null, exchange };
}

/** What an authorized call did: its final answer, the token events and where the time went. */
interface AuthorizedResult {
  result: ApiResult<unknown>;
  events: TokenEvent[];
  /** The client secret and every access token this call held: hidden wherever an upstream echoes them. */
  secrets: (string | undefined)[];
  tokenMs: number;
  retriedMs: number | undefined;
}

/**
 * Sends an authorized call with the session's token (renewed before expiry by the broker); after a 401 the
 * token is renewed once and the call retried once, as spec §5.8 allows.
 */
async function withToken(
  session: Session,
  ctx: Context,
  send: (token: AccessToken) => Promise<ApiResult<unknown>>,
): Promise<AuthorizedResult> {
  const tokens = tokenContext(ctx, session);
  const broker = ctx.broker;
  const events: TokenEvent[] = [];
  const secrets = [tokens.credentials.clientSecret, session.state.token?.accessToken];
  const obtain = async (get: () => Promise<{ token: AccessToken; event?: TokenEvent; tokenMs: number }>) => {
    const obtained = await callUpstream(get, "token", ctx.client.urls.token);
    if (obtained.event) events.push(obtained.event);
    secrets.push(obtained.token.accessToken);
    session.update({ token: obtained.token });
    return obtained;
  };

  const first = await obtain(() => broker.ensure(tokens, currentToken(session, ctx)));
  let tokenMs = first.tokenMs;
  let result = await send(first.token);
  let retriedMs: number | undefined;
  if (result.exchange.response.status === 401) {
    retriedMs = result.exchange.durationMs;
    const renewed = await obtain(() =>
      broker.renewAfterRejection(tokens, first.token, result.exchange.startedAt),
    );
    tokenMs += renewed.tokenMs;
    result = await send(renewed.token);
  }

  return { result, events, secrets, tokenMs, retriedMs };
}

export async function runInquiry(
  deps: InquiryDeps,
  session: Session,
  operation: InquiryOperation,
  input: InquiryInput,
): Promise<ExchangeRecord> {
  const started = performance.now();
  const ctx = context(deps, session, input.environment);
  const card: CardRequest = {
    entry_mode: input.entry_mode,
    card_number: input.card_number,
    pin_mode: input.pin_mode,
    originator: { location_id: input.location_id },
  };
  const requestId = operation === "gift_balance_inquiry" ? (input.request_id ?? randomUUID()) : undefined;
  const url =
    operation === "gift_balance_inquiry"
      ? ctx.client.urls.giftBalanceInquiry
      : ctx.client.urls.balanceInquiry;
  const failureDetails = requestId === undefined ? {} : { request_id: requestId };

  const send = (token: AccessToken): Promise<ApiResult<unknown>> =>
    callUpstream<ApiResult<unknown>>(
      () =>
        requestId === undefined
          ? ctx.client.balanceInquiry({ accessToken: token.accessToken, card })
          : ctx.client.giftBalanceInquiry({ accessToken: token.accessToken, requestId, card }),
      operation,
      url,
      failureDetails,
    );

  return authorizedRecord(operation, ctx, started, await withToken(session, ctx, send), requestId);
}

/**
 * A Balance Inquiry outside an HTTP request (support batches run on the server after the request ended): the same
 * broker, client and retry rule as `runInquiry`, with `state` (environment, credentials, token) standing in for
 * the session. Returns the record and the state holding the token used, for the next call to reuse.
 */
export async function runDetachedBalanceInquiry(
  deps: InquiryDeps & { sessions: SessionContext },
  state: SessionState,
  input: InquiryInput,
): Promise<{ record: ExchangeRecord; state: SessionState }> {
  // Never committed: the store is only what a Session is made with; nothing here writes a session row.
  const session = new Session(state, false, false, deps.sessions);
  const record = await runInquiry(deps, session, "balance_inquiry", input);
  return { record, state: session.state };
}

/**
 * GET /api/transactions/request-id/{id}: Lookup Transaction by Request Id (spec §4.3 item 3). A GET changes
 * nothing upstream, so the 401 retry of withToken is safe here too.
 */
export async function lookupTransaction(
  deps: InquiryDeps,
  session: Session,
  requestId: string,
  expectedEnvironment?: EnvironmentName,
): Promise<ExchangeRecord> {
  const started = performance.now();
  const ctx = context(deps, session, expectedEnvironment);
  const url = ctx.client.urls.transactionByRequestId(requestId);
  const send = (token: AccessToken): Promise<ApiResult<unknown>> =>
    callUpstream<ApiResult<unknown>>(
      () => ctx.client.transactionByRequestId({ accessToken: token.accessToken, requestId }),
      "transaction_lookup",
      url,
      { request_id: requestId },
    );
  return authorizedRecord("transaction_lookup", ctx, started, await withToken(session, ctx, send), requestId);
}

function authorizedRecord(
  operation: OperationName,
  ctx: Context,
  started: number,
  { result, events, secrets, tokenMs, retriedMs }: AuthorizedResult,
  requestId: string | undefined,
): ExchangeRecord {
  return buildExchangeRecord({
    operation,
    environment: ctx.environment.name,
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
