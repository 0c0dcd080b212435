"use client";
/**
 * The "Your application" calls (docs/design.md §11): the certification under way is polled so that the live log
 * and the checks follow the application's traffic; writes go through useSWRMutation. Each poll asks only for
 * the calls after the last one the page holds (`?calls_after=<seq>`), so a busy log costs one page, not all.
 */
import { useCallback, useRef } from "react";
import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import { apiKeys, clientCertificationKey } from "@/lib/client/api-keys";
import { getJson, sendJson, type ApiClientError } from "@/lib/client/fetcher";
import type {
  ClientCallRecord,
  ClientCertificationStatus,
  ClientCertificationSummary,
  ClientCertificationView,
  ClientStepId,
  StartedClientCertification,
} from "@/lib/shared/client-certification-contract";

/** How often a certification under way is read again: calls show up within a second. */
const POLL_MS = 1000;

export function isUnderWay(status: ClientCertificationStatus): boolean {
  return status === "waiting" || status === "running";
}

/** Pages a poll reads at most before showing what it has (the server's page is 100 calls). */
const MAX_PAGES_PER_POLL = 5;

/** The calls of `known` followed by those of `page` not already among them. */
function appendCalls(known: ClientCallRecord[], page: ClientCallRecord[]): ClientCallRecord[] {
  const ids = new Set(known.map((call) => call.id));
  const fresh = page.filter((call) => !ids.has(call.id));
  return fresh.length === 0 ? known : [...known, ...fresh];
}

export function useClientCertification(id: string | null) {
  const log = useRef<ClientCallRecord[]>([]);
  const fetcher = useCallback(async (key: string): Promise<ClientCertificationView> => {
    let view: ClientCertificationView | undefined;
    for (let page = 0; page < MAX_PAGES_PER_POLL; page += 1) {
      const last = log.current.at(-1)?.seq;
      view = await getJson<ClientCertificationView>(last === undefined ? key : `${key}?calls_after=${last}`);
      log.current = appendCalls(log.current, view.exchanges);
      if (log.current.length >= view.calls.kept || view.exchanges.length === 0) break;
    }
    return { ...view!, exchanges: log.current };
  }, []);
  return useSWR<ClientCertificationView, ApiClientError>(id ? clientCertificationKey(id) : null, fetcher, {
    refreshInterval: (data) => (data && isUnderWay(data.status) ? POLL_MS : 0),
  });
}

/** A step's or finish's answer in place of the cached view, keeping the call log the page has gathered. */
function keepLog(
  result: ClientCertificationView,
  current?: ClientCertificationView,
): ClientCertificationView {
  return { ...result, exchanges: appendCalls(current?.exchanges ?? [], result.exchanges) };
}

/** The caller's certifications (an admin's: everyone's), newest first. */
export function useClientCertifications() {
  return useSWR<{ certifications: ClientCertificationSummary[] }, ApiClientError>(
    apiKeys.clientCertifications,
    getJson,
  );
}

/**
 * The secret a start answered with, handed to the certification's page in this tab's memory only (SWR's cache,
 * never fetched, never stored): shown there once, gone on reload, never in another tab.
 */
const secretKey = (id: string) => ["client-certification-secret", id] as const;

export function useHandOverSecret(): (started: StartedClientCertification) => Promise<unknown> {
  const { mutate } = useSWRConfig();
  return useCallback(
    (started) => mutate(secretKey(started.id), started.client_secret, { revalidate: false }),
    [mutate],
  );
}

export function useHandedOverSecret(id: string): string | undefined {
  return useSWR<string>(secretKey(id), null, { revalidateOnMount: false }).data;
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
    { populateCache: keepLog, revalidate: false },
  );
}

export function useFinishClientCertification(id: string) {
  return useSWRMutation<ClientCertificationView, ApiClientError, string, Record<string, never>>(
    clientCertificationKey(id),
    (key: string, { arg }: { arg: Record<string, never> }) =>
      sendJson<ClientCertificationView, Record<string, never>>("POST")(`${key}/finish`, { arg }),
    { populateCache: keepLog, revalidate: false },
  );
}

/** The certification's own page: a reload, another tab or a shared link returns to it. */
export function clientCertificationPage(id: string): string {
  return `/certification/clients/${encodeURIComponent(id)}`;
}

export function clientEvidenceUrl(id: string): string {
  return `${clientCertificationKey(id)}/evidence`;
}
