/**
 * The one driver of an authorized card call, whoever pays for it (./call-context): the context's token
 * (renewed before expiry by the broker), the call, and after a 401 one renewal and one retry (API specification §5.8, §4.3)
 * with the same X-Request-Id, since the call is prepared the same way again. Nothing else is retried: a Gift
 * Balance Inquiry records a transaction. "No answer" from the token endpoint or the card API becomes the
 * console's 504/502 error shape; the answer becomes the exchange record (redacted and masked).
 */
import "server-only";
import type { ExchangeRecord, OperationName, TokenEvent } from "@/lib/shared/contracts";
import type { NoAnswerDetails } from "@/lib/shared/error-details";
import { checkCardAnswer, type CardCall, type RawExchange } from "@/lib/server/card-api/client";
import { buildExchangeRecord } from "@/lib/server/card-api/exchange-record";
import { UpstreamFailure } from "@/lib/server/card-api/transport";
import { ApiError } from "@/lib/server/util/errors";
import type { ObtainedToken } from "./broker";
import { paying, type CallContext } from "./call-context";

/** An upstream that did not answer as the console's 504/502; any other error as it is. */
export function noAnswer(error: unknown, operation: OperationName, url: string, requestId?: string): unknown {
  if (!(error instanceof UpstreamFailure)) return error;
  const details: NoAnswerDetails = {
    operation,
    url,
    ...(requestId === undefined ? {} : { request_id: requestId }),
    ...(error.errorCode ? { cause: error.errorCode } : {}),
  };
  switch (error.kind) {
    case "timeout":
      return new ApiError("upstream_timeout", error.message, details);
    case "tls":
      return new ApiError("upstream_tls_error", error.message, details);
    default:
      return new ApiError("upstream_unreachable", error.message, details);
  }
}

/** What the call went through on its way: token events, every secret it held, where the time went. */
interface CallLog {
  started: number;
  events: TokenEvent[];
  /** The client secret and every access token the call held: hidden wherever an upstream echoes them. */
  secrets: (string | undefined)[];
  tokenMs: number;
  retriedMs?: number;
}

/** `card` sent with the context's token, retried once after a 401; the exchange record of its answer. */
export async function callWithToken(
  call: CallContext,
  card: CardCall,
  started = performance.now(),
): Promise<ExchangeRecord> {
  const { client, broker } = call;
  const log: CallLog = {
    started,
    events: [],
    secrets: [paying(call).clientSecret, call.current()?.accessToken],
    tokenMs: 0,
  };
  const obtain = async (get: () => Promise<ObtainedToken>) => {
    let obtained: ObtainedToken;
    try {
      obtained = await get();
    } catch (error) {
      throw noAnswer(error, "token", client.urls.token);
    }
    if (obtained.event) log.events.push(obtained.event);
    log.secrets.push(obtained.token.accessToken);
    log.tokenMs += obtained.tokenMs;
    call.keep(obtained.token);
    return obtained.token;
  };
  let token = await obtain(() => broker.ensure(call, call.current()));
  for (;;) {
    const request = client.prepare(card, token.accessToken);
    let exchange: RawExchange;
    try {
      exchange = await client.send(request);
    } catch (error) {
      throw noAnswer(error, card.operation, request.url, card.requestId);
    }
    if (exchange.response.status !== 401 || log.retriedMs !== undefined)
      return record(call, card, exchange, log);
    log.retriedMs = exchange.durationMs;
    const rejected = token;
    token = await obtain(() => broker.renewAfterRejection(call, rejected, exchange.startedAt));
  }
}

function record(call: CallContext, card: CardCall, exchange: RawExchange, log: CallLog): ExchangeRecord {
  return buildExchangeRecord({
    operation: card.operation,
    environment: call.environment.name,
    exchange,
    check: checkCardAnswer(card.operation, exchange.response),
    tokenEvents: log.events,
    requestId: card.requestId,
    secrets: log.secrets,
    timings: {
      total_ms: Math.round((performance.now() - log.started) * 10) / 10,
      token_ms: log.tokenMs,
      upstream_ms: exchange.durationMs,
      ...(log.retriedMs === undefined ? {} : { retried_ms: log.retriedMs }),
    },
  });
}
