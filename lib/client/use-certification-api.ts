"use client";
/**
 * The runs page's calls (docs/design.md §4): SWR keys are the route URLs (lib/client/api-keys.ts); a run being
 * worked on is polled until it ends; writes go through useSWRMutation.
 */
import useSWR from "swr";
import useSWRMutation from "swr/mutation";
import { apiKeys, certificationRunKey } from "@/lib/client/api-keys";
import { getJson, requestJson, sendJson, type ApiClientError } from "@/lib/client/fetcher";
import type {
  RunListResponse,
  RunView,
  StartRunInput,
  StartRunResponse,
  VerifyResponse,
} from "@/lib/shared/certification-api";
import type { RunStatus } from "@/lib/shared/certification-contract";

/** How often a run under way is read again. */
const POLL_MS = 1000;

export function isActive(status: RunStatus): boolean {
  return status === "queued" || status === "running";
}

export function useRuns() {
  return useSWR<RunListResponse, ApiClientError>(apiKeys.certificationRuns, getJson, {
    refreshInterval: (data) => (data?.runs.some((run) => isActive(run.status)) ? POLL_MS * 2 : 0),
  });
}

export function useRun(id: string | null) {
  return useSWR<RunView, ApiClientError>(id ? certificationRunKey(id) : null, getJson, {
    refreshInterval: (data) => (data && isActive(data.status) ? POLL_MS : 0),
  });
}

export function useStartRun() {
  return useSWRMutation<StartRunResponse, ApiClientError, string, StartRunInput>(
    apiKeys.certificationRuns,
    sendJson<StartRunResponse, StartRunInput>("POST"),
  );
}

/** Cancels a run: the answer (the run, cancelled) becomes the run's cached view. */
export function useCancelRun(id: string) {
  return useSWRMutation<RunView, ApiClientError, string, Record<string, never>>(
    certificationRunKey(id),
    (key: string, options: { arg: Record<string, never> }) =>
      sendJson<RunView, Record<string, never>>("POST")(`${key}/cancel`, options),
    { populateCache: true, revalidate: true },
  );
}

export function useVerifyBundle() {
  return useSWRMutation<VerifyResponse, ApiClientError, string, Blob>(
    apiKeys.certificationVerify,
    (url: string, { arg }: { arg: Blob }) =>
      requestJson<VerifyResponse>(url, {
        method: "POST",
        headers: { "Content-Type": "application/zip" },
        body: arg,
      }),
  );
}

export function evidenceUrl(id: string): string {
  return `${certificationRunKey(id)}/evidence`;
}
