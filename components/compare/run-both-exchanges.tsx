"use client";

import { useId } from "react";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { summaryTransactionId } from "@/lib/shared/exchange-summary";
import { isSuccessStatus } from "@/lib/client/exchange-summary";
import { ExchangeView } from "@/components/exchange/exchange-view";
import { LookupOutcomeView } from "@/components/exchange/lookup-outcome-view";
import type { RunBothResult } from "./use-run-both";
import { Panel } from "@/components/ui/panel";

/** After "Run both": each run's request and response, and the lookup of the gift run's Request Id. */
export function RunBothExchanges({
  result,
  giftRecord,
  balanceRecord,
}: {
  result: RunBothResult;
  giftRecord: ExchangeRecord | null;
  balanceRecord: ExchangeRecord | null;
}) {
  const lookupId = useId();
  return (
    <div className="space-y-4">
      {giftRecord ? (
        <ExchangeView
          exchange={giftRecord}
          fullCardNumber={result.fullCard}
          title="Gift Balance Inquiry: request and response"
          defaultOpen={!isSuccessStatus(giftRecord.response.status)}
        />
      ) : null}
      {balanceRecord ? (
        <ExchangeView
          exchange={balanceRecord}
          fullCardNumber={result.fullCard}
          title="Balance Inquiry: request and response"
          defaultOpen={!isSuccessStatus(balanceRecord.response.status)}
        />
      ) : null}
      {result.lookup ? (
        <Panel aria-labelledby={lookupId} bodyClassName="space-y-3 p-5">
          <h2 id={lookupId} className="text-sm font-semibold text-fg">
            Lookup Transaction by Request Id{" "}
            <code className="font-mono text-xs font-normal break-all">{giftRecord?.request_id}</code>
          </h2>
          <LookupOutcomeView
            outcome={result.lookup}
            transactionId={giftRecord ? summaryTransactionId(giftRecord) : null}
          />
        </Panel>
      ) : null}
    </div>
  );
}
