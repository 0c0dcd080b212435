/**
 * The one driver of an authorized card call, whoever provides the token (lib/server/card-api/token-source):
 * ensure the source's token (renewed before expiry by the broker), send, and after a 401 renew once and retry
 * once (spec §5.8), with the same X-Request-Id since `send` builds the same request. Nothing else is retried:
 * a Gift Balance Inquiry records a transaction.
 */
import "server-only";
import type { TokenEvent } from "@/lib/shared/contracts";
import type { AccessToken } from "@/lib/server/session";
import type { ApiResult, CardApiClient } from "./client";
import type { ObtainedToken, TokenBroker, TokenContext } from "./token-broker";
import { tokenContext, type TokenSource } from "./token-source";

/** Wraps each token request (the console turns "no answer" into its own error shape). */
type TokenCallGuard = (get: () => Promise<ObtainedToken>) => Promise<ObtainedToken>;

export interface AuthorizedCall {
  broker: TokenBroker;
  source: TokenSource;
  client: CardApiClient;
  guardToken?: TokenCallGuard;
}

/** What an authorized call did: its final answer, the token events and where the time went. */
export interface AuthorizedResult {
  result: ApiResult<unknown>;
  events: TokenEvent[];
  /** The client secret and every access token this call held: hidden wherever an upstream echoes them. */
  secrets: (string | undefined)[];
  tokenMs: number;
  retriedMs: number | undefined;
}

/** The source's token, fresh enough to send (a new one when it had none or it is due), kept by the source. */
export async function ensureToken(
  broker: TokenBroker,
  source: TokenSource,
  context: TokenContext,
): Promise<ObtainedToken> {
  const obtained = await broker.ensure(context, source.current());
  source.keep(obtained.token);
  return obtained;
}

export async function withToken(
  call: AuthorizedCall,
  send: (token: AccessToken) => Promise<ApiResult<unknown>>,
): Promise<AuthorizedResult> {
  const { broker, source } = call;
  const guard: TokenCallGuard = call.guardToken ?? ((get) => get());
  const context = tokenContext(source, call.client);
  const events: TokenEvent[] = [];
  const secrets = [context.credentials.clientSecret, source.current()?.accessToken];
  const obtain = async (get: () => Promise<ObtainedToken>) => {
    const obtained = await guard(get);
    if (obtained.event) events.push(obtained.event);
    secrets.push(obtained.token.accessToken);
    source.keep(obtained.token);
    return obtained;
  };

  const first = await obtain(() => broker.ensure(context, source.current()));
  let tokenMs = first.tokenMs;
  let result = await send(first.token);
  let retriedMs: number | undefined;
  if (result.exchange.response.status === 401) {
    retriedMs = result.exchange.durationMs;
    const rejectedAt = result.exchange.startedAt;
    const renewed = await obtain(() => broker.renewAfterRejection(context, first.token, rejectedAt));
    tokenMs += renewed.tokenMs;
    result = await send(renewed.token);
  }
  return { result, events, secrets, tokenMs, retriedMs };
}
