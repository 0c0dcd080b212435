"use client";

import type { ExchangeRecord } from "@/lib/shared/contracts";
import { statusLine } from "@/lib/client/http-status";
import { requestIdLookupOf } from "@/lib/client/spec-comparison";
import { Badge } from "@/components/ui/badge";
import { ExchangeView, statusTone } from "./exchange-view";
import { StatusExplanation } from "./status-explanation";

/** The console calls the sandbox's path everywhere (docs/design.md §5): said wherever a lookup is shown. */
const LOOKUP_PATH_NOTE = "Path as implemented by the sandbox; the specification does not show the real one.";

/**
 * One lookup's answer: found (with the transaction_id, and whether it is the inquiry's) or not found, its
 * status, and its exchange. A lookup that got no answer is shown by `<ApiErrorAlert>`.
 */
export function LookupResult({
  record,
  transactionId,
}: {
  record: ExchangeRecord;
  /** The Gift Balance Inquiry's transaction_id, to say whether the lookup found that very transaction. */
  transactionId?: string | null;
}) {
  const lookup = requestIdLookupOf(record);
  const same = lookup.found && (!transactionId || lookup.transaction_id === transactionId);
  return (
    <div className="space-y-3" data-testid="lookup-result">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-fg">
          {lookup.found ? "Found by Request Id" : "Not found by Request Id"}
        </span>
        <Badge tone={statusTone(record.response.status)}>{statusLine(record.response.status)}</Badge>
        {lookup.found ? (
          <span className="text-body">
            transaction_id <code className="font-mono text-xs break-all">{lookup.transaction_id}</code>
            {transactionId ? (same ? " — the same transaction" : " — a different transaction") : null}
          </span>
        ) : null}
      </p>
      <p className="text-xs text-muted">{LOOKUP_PATH_NOTE}</p>
      {lookup.found || record.response.status === 404 ? null : <StatusExplanation exchange={record} />}
      <ExchangeView
        exchange={record}
        title="Lookup by Request Id: request and response"
        defaultOpen={!lookup.found}
      />
    </div>
  );
}
