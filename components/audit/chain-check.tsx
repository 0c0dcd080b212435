"use client";

import type { ReactNode } from "react";
import useSWRMutation from "swr/mutation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { apiKeys } from "@/lib/client/api-keys";
import { getJson } from "@/lib/client/fetcher";
import type { ChainVerdict } from "./audit-types";

/** "Verify chain" (after `children`, e.g. the export link): the server walks the whole hash chain (GET /api/audit/verify) and says where it breaks. */
export function ChainCheck({ children }: { children?: ReactNode }) {
  const { trigger, data, error, isMutating } = useSWRMutation(apiKeys.auditVerify, (url: string) =>
    getJson<ChainVerdict>(url),
  );
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        {children}
        <Button busy={isMutating} onClick={() => void trigger().catch(() => {})}>
          Verify chain
        </Button>
      </div>
      <div aria-live="polite">
        {error ? (
          <Alert tone="danger" title="The chain could not be checked" role="alert">
            <p>{error instanceof Error ? error.message : "Unknown error"}</p>
          </Alert>
        ) : data?.ok ? (
          <Alert tone="success" title="Chain intact" role="status">
            <p data-testid="chain-verdict">
              All {data.rows} rows are unchanged and in order: each carries the hash of the one before.
            </p>
            <Coverage verdict={data} />
          </Alert>
        ) : data ? (
          <Alert tone="danger" title="The chain is broken" role="alert">
            <p data-testid="chain-verdict">
              First bad row: <strong>{data.first_bad_row}</strong> (of {data.rows} checked). Reason:{" "}
              {data.reason}
            </p>
            <p>
              A row was changed, deleted or inserted after it was written. Keep the database as it is and tell
              security.
            </p>
          </Alert>
        ) : null}
      </div>
    </div>
  );
}

/** What the check covered: the signed checkpoints that a truncated or re-chained log would no longer match. */
function Coverage({ verdict }: { verdict: ChainVerdict }) {
  const last = verdict.last_checkpoint;
  return (
    <p data-testid="chain-coverage">
      {verdict.checkpoints} signed checkpoints matched
      {last ? `, the latest of row ${last.seq} at ${last.at}` : " (none written yet)"}
      {verdict.through ? `; rows up to ${verdict.through}` : ""}.
    </p>
  );
}
