"use client";

import { useState } from "react";
import useSWR from "swr";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { ExchangeIndexEntry } from "@/lib/shared/certification-api";
import { certificationExchangeKey } from "@/lib/client/api-keys";
import { getJson, type ApiClientError } from "@/lib/client/fetcher";
import { ApiErrorAlert } from "@/components/exchange/api-error-alert";
import { ExchangeView } from "@/components/exchange/exchange-view";

function LoadedExchange({ runId, id }: { runId: string; id: string }) {
  const { data, error } = useSWR<ExchangeRecord, ApiClientError>(
    certificationExchangeKey(runId, id),
    getJson,
  );
  if (error) return <ApiErrorAlert error={error} />;
  if (!data) return <p className="text-xs text-muted">Loading the exchange…</p>;
  return <ExchangeView exchange={data} title={`Exchange ${id}`} headingLevel={3} />;
}

/**
 * One exchange of a case: its line (operation, status, X-Request-Id) opens to the request and response as
 * stored — masked and redacted as in the evidence bundle — read only when opened.
 */
export function CaseExchange({
  runId,
  id,
  entry,
}: {
  runId: string;
  id: string;
  entry?: ExchangeIndexEntry;
}) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <details onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="case-exchange">
        <summary className="cursor-pointer font-mono text-xs break-all text-body">
          {id}
          {entry ? ` · ${entry.operation} · HTTP ${entry.status}` : ""}
          {entry?.request_id ? ` · X-Request-Id ${entry.request_id}` : ""}
        </summary>
        {open ? (
          <div className="mt-2">
            <LoadedExchange runId={runId} id={id} />
          </div>
        ) : null}
      </details>
    </li>
  );
}
