/**
 * A card API client whose every call first waits for `before` (a budget, e.g. the per-user limit of upstream
 * calls): the same client, addresses and records, for work whose calls must count toward a limit as a single
 * call does.
 */
import "server-only";
import type { CardApiClient } from "./client";

export function gatedClient(client: CardApiClient, before: () => Promise<void>): CardApiClient {
  const gated =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await before();
      return call(...args);
    };
  return {
    urls: client.urls,
    prepare: client.prepare,
    send: gated(client.send),
    requestToken: gated(client.requestToken),
    giftBalanceInquiry: gated(client.giftBalanceInquiry),
    balanceInquiry: gated(client.balanceInquiry),
    transactionByRequestId: gated(client.transactionByRequestId),
    requestTokenWithBody: gated(client.requestTokenWithBody),
  };
}
