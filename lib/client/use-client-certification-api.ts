"use client";
/**
 * The "Your application" calls (DESIGN.md §11): the certification under way is polled so that the live log
 * and the checks follow the application's traffic; writes go through useSWRMutation.
 */
import useSWR from "swr";
import useSWRMutation from "swr/mutation";
import { apiKeys, clientCertificationKey } from "@/lib/client/api-keys";
import { getJson, sendJson, type ApiClientError } from "@/lib/client/fetcher";
import type {
  ClientCertificationStatus,
  ClientCertificationView,
  ClientStepId,
  StartedClientCertification,
} from "@/lib/shared/client-certification-contract";

/** How often a certification under way is read again: calls show up within a second. */
const POLL_MS = 1000;

export function isUnderWay(status: ClientCertificationStatus): boolean {
  return status === "waiting" || status === "running";
}

export function useClientCertification(id: string | null) {
  return useSWR<ClientCertificationView, ApiClientError>(id ? clientCertificationKey(id) : null, getJson, {
    refreshInterval: (data) => (data && isUnderWay(data.status) ? POLL_MS : 0),
  });
}

export function useStartClientCertification() {
  return useSWRMutation<StartedClientCertification, ApiClientError, string, { environment: "embedded" }>(
    apiKeys.clientCertifications,
    sendJson<StartedClientCertification, { environment: "embedded" }>("POST"),
  );
}

export function useArmStep(id: string) {
  return useSWRMutation<ClientCertificationView, ApiClientError, string, ClientStepId>(
    clientCertificationKey(id),
    (key: string, { arg }: { arg: ClientStepId }) =>
      sendJson<ClientCertificationView, Record<string, never>>("POST")(`${key}/steps/${arg}`, { arg: {} }),
    { populateCache: true, revalidate: false },
  );
}

export function useFinishClientCertification(id: string) {
  return useSWRMutation<ClientCertificationView, ApiClientError, string, Record<string, never>>(
    clientCertificationKey(id),
    (key: string, { arg }: { arg: Record<string, never> }) =>
      sendJson<ClientCertificationView, Record<string, never>>("POST")(`${key}/finish`, { arg }),
    { populateCache: true, revalidate: false },
  );
}

export function clientEvidenceUrl(id: string): string {
  return `${clientCertificationKey(id)}/evidence`;
}
