/** POST /api/token: a token request now, for the call context's credentials, kept by the context when issued. */
import "server-only";
import type { TokenEvent, TokenResult } from "@/lib/shared/contracts";
import { buildExchangeRecord } from "@/lib/server/card-api/exchange-record";
import { noAnswer } from "./authorized";
import { paying, type CallContext } from "./call-context";
import { tokenFingerprint, tokenMetadata } from "./metadata";

/** 200 with the exchange whenever the token endpoint answered; 504/502 when it did not. */
export async function requestTokenNow(call: CallContext): Promise<TokenResult> {
  const { clientSecret } = paying(call);
  const previousToken = call.current()?.accessToken;
  let result: Awaited<ReturnType<CallContext["broker"]["requestNow"]>>;
  try {
    result = await call.broker.requestNow(call);
  } catch (error) {
    throw noAnswer(error, "token", call.client.urls.token);
  }
  if (result.token) call.keep(result.token);
  // A token asked for by the user is a token event too: the Token page lists it beside the calls' own.
  const requested: TokenEvent[] = result.token
    ? [
        {
          type: "requested",
          at: new Date(result.token.issuedAt).toISOString(),
          fingerprint: tokenFingerprint(result.token.accessToken),
          detail: previousToken ? "Requested now, replacing the session's token." : "Requested now.",
        },
      ]
    : [];
  const exchange = buildExchangeRecord({
    operation: "token",
    environment: call.environment.name,
    exchange: result.exchange,
    check: result.check,
    tokenEvents: requested,
    secrets: [clientSecret, previousToken, result.token?.accessToken],
  });
  return { token: result.token ? tokenMetadata(result.token) : null, exchange };
}
