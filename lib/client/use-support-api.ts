/**
 * The support desk page's side of its HTTP interface: the URLs (SWR keys) and hooks. Isomorphic and secret-free;
 * reads use SWR with the route URL as key, writes useSWRMutation.
 */
import useSWR from "swr";
import useSWRMutation from "swr/mutation";
import { getJson, requestJson, sendJson, type ApiClientError } from "@/lib/client/fetcher";
import type {
  ResultFilter,
  SupportBatchList,
  SupportBatchProgress,
  SupportBatchResults,
  SupportLookupInput,
  SupportLookupResult,
  SupportTransactionLookup,
} from "@/lib/shared/support-contract";

export const supportKeys = {
  lookups: "/api/support/lookups",
  batches: "/api/support/batches",
  batch: (id: string) => `/api/support/batches/${encodeURIComponent(id)}`,
  results: (id: string, from = 0, limit = 100, show?: ResultFilter) =>
    `/api/support/batches/${encodeURIComponent(id)}/results?from=${from}&limit=${limit}${show ? `&show=${show}` : ""}`,
  retry: (id: string) => `/api/support/batches/${encodeURIComponent(id)}/retry`,
  resultsCsv: (id: string) => `/api/support/batches/${encodeURIComponent(id)}/results.csv`,
  /** Lookup by Request Id: support gets the summary (lib/server/support/transaction-lookup), never the exchange. */
  transaction: (requestId: string) => `/api/transactions/request-id/${encodeURIComponent(requestId)}`,
  /** The page a batch can be found again at. */
  batchPage: (id: string) => `/support/batches/${encodeURIComponent(id)}`,
} as const;

export function useSupportLookup() {
  return useSWRMutation<SupportLookupResult, ApiClientError, string, SupportLookupInput>(
    supportKeys.lookups,
    sendJson("POST"),
  );
}

/** Starts a batch from CSV or pasted text (one card per line), sent as `text/csv`; the reason rides in the query. */
export function useStartBatch() {
  return useSWRMutation<SupportBatchProgress, ApiClientError, string, { csv: string; reason?: string }>(
    supportKeys.batches,
    (url: string, { arg }: { arg: { csv: string; reason?: string } }) =>
      requestJson<SupportBatchProgress>(
        arg.reason ? `${url}?reason=${encodeURIComponent(arg.reason)}` : url,
        {
          method: "POST",
          headers: { "Content-Type": "text/csv" },
          body: arg.csv,
        },
      ),
  );
}

/** Looks a transaction up by its Request Id on demand (a read, triggered by the agent's Enter). */
export function useTransactionLookup() {
  return useSWRMutation<SupportTransactionLookup, ApiClientError, string, string>(
    "/api/transactions/request-id",
    (_url: string, { arg }: { arg: string }) =>
      getJson<SupportTransactionLookup>(supportKeys.transaction(arg)),
  );
}

/** Still moving: queued or running, or cancelled with cards already sent that have not answered yet. */
export function batchActive(batch: Pick<SupportBatchProgress, "status" | "in_flight"> | undefined): boolean {
  if (!batch) return true;
  return batch.status === "queued" || batch.status === "running" || batch.in_flight > 0;
}

/** A batch's progress, polled every second until no card is in flight. */
export function useBatchProgress(id: string) {
  return useSWR<SupportBatchProgress, ApiClientError>(supportKeys.batch(id), getJson, {
    refreshInterval: (latest) => (batchActive(latest) ? 1000 : 0),
  });
}

/** The caller's batches (everyone's for an admin), newest first; refreshed while one of them moves. */
export function useBatchList() {
  return useSWR<SupportBatchList, ApiClientError>(supportKeys.batches, getJson, {
    refreshInterval: (latest) => (latest?.batches.some((batch) => batchActive(batch)) ? 2000 : 0),
  });
}

export function useBatchResults(id: string, refreshWhileRunning: boolean, show?: ResultFilter) {
  return useSWR<SupportBatchResults, ApiClientError>(supportKeys.results(id, 0, 100, show), getJson, {
    refreshInterval: refreshWhileRunning ? 2000 : 0,
  });
}

export function useCancelBatch(id: string) {
  return useSWRMutation<SupportBatchProgress, ApiClientError, string>(supportKeys.batch(id), (url: string) =>
    requestJson<SupportBatchProgress>(url, { method: "DELETE" }),
  );
}

/** "Run the failed cards again": a new batch of this batch's failed cards (the server kept their numbers). */
export function useRetryFailed(id: string) {
  return useSWRMutation<SupportBatchProgress, ApiClientError, string>(supportKeys.retry(id), (url: string) =>
    requestJson<SupportBatchProgress>(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    }),
  );
}
