import type { ExchangeRecord } from "@/lib/api/contracts";
import { ExchangeView } from "./exchange-view";
import { StatusExplanation } from "./status-explanation";

/** The exchange a `token_refused` error carries: what the status means, and the request and response. */
export function RefusedExchange({ exchange }: { exchange: ExchangeRecord }) {
  return (
    <>
      <StatusExplanation exchange={exchange} />
      <ExchangeView exchange={exchange} title="The refused token request" defaultOpen />
    </>
  );
}
