/**
 * React hooks over the console's session: its read (the header of every page shows it) and its writes.
 * Reads use SWR with the route URL as key; writes use `useSWRMutation`.
 */
import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import type { CredentialsInput, EnvironmentName, SessionInfo } from "@/lib/shared/contracts";
import { apiKeys } from "./api-keys";
import { getJson, sendJson, type ApiClientError } from "./fetcher";

export function useSession() {
  return useSWR<SessionInfo, ApiClientError>(apiKeys.session, getJson);
}

export function useSaveCredentials() {
  const { mutate } = useSWRConfig();
  return useSWRMutation<unknown, ApiClientError, string, CredentialsInput>(
    apiKeys.sessionCredentials,
    sendJson("PUT"),
    { onSuccess: () => void mutate(apiKeys.session) },
  );
}

export function useSwitchEnvironment() {
  const { mutate } = useSWRConfig();
  return useSWRMutation<unknown, ApiClientError, string, { environment: EnvironmentName }>(
    apiKeys.sessionEnvironment,
    sendJson("PUT"),
    { onSuccess: () => void mutate(apiKeys.session) },
  );
}

/** DELETE /api/session: forgets credentials and token. Same key as the session read, which SWR revalidates. */
export function useForgetSession() {
  return useSWRMutation<unknown, ApiClientError, string, Record<string, never>>(
    apiKeys.session,
    sendJson("DELETE"),
  );
}
