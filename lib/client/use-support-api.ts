/**
 * The support desk page's side of its HTTP interface: the URLs (SWR keys) and hooks. Isomorphic and secret-free;
 * reads use SWR with the route URL as key, writes useSWRMutation.
 */
import useSWR from "swr";
import useSWRMutation from "swr/mutation";
import { getJson, requestJson, sendJson, type ApiClientError } from "@/lib/client/fetcher";
import type {
  SupportBatchProgress,
  SupportBatchResults,
  SupportLookupInput,
  SupportLookupResult,
} from "@/lib/shared/support-contract";

export const supportKeys = {
  lookups: "/api/support/lookups",
  batches: "/api/support/batches",
  batch: (id: string) => `/api/support/batches/${encodeURIComponent(id)}`,
  results: (id: string, from = 0, limit = 100) =>
    `/api/support/batches/${encodeURIComponent(id)}/results?from=${from}&limit=${limit}`,
  resultsCsv: (id: string) => `/api/support/batches/${encodeURIComponent(id)}/results.csv`,
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

const RUNNING = new Set(["queued", "running"]);

/** A batch's progress, polled every second while it runs. */
export function useBatchProgress(id: string) {
  return useSWR<SupportBatchProgress, ApiClientError>(supportKeys.batch(id), getJson, {
    refreshInterval: (latest) => (latest && !RUNNING.has(latest.status) ? 0 : 1000),
  });
}

export function useBatchResults(id: string, refreshWhileRunning: boolean) {
  return useSWR<SupportBatchResults, ApiClientError>(supportKeys.results(id, 0, 100), getJson, {
    refreshInterval: refreshWhileRunning ? 2000 : 0,
  });
}

export function useCancelBatch(id: string) {
  return useSWRMutation<SupportBatchProgress, ApiClientError, string>(supportKeys.batch(id), (url: string) =>
    requestJson<SupportBatchProgress>(url, { method: "DELETE" }),
  );
}
