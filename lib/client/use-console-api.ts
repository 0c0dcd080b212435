/**
 * React hooks over the console's HTTP interface. Reads use SWR with the route URL as key; writes use
 * `useSWRMutation`. Every token request, inquiry run and transaction lookup is saved to the browser's history.
 */
import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import type {
  BalanceInquiryInput,
  CredentialsInput,
  EnvironmentName,
  ExchangeRecord,
  GiftBalanceInquiryInput,
  SessionInfo,
  TokenResult,
} from "@/lib/api/contracts";
import { apiKeys, inquiryKey, transactionLookupKey, type InquiryOperation } from "./api-keys";
import { getJson, sendJson, type ApiClientError } from "./fetcher";
import { historyStore } from "./history-store";

/** History is a convenience: a browser without IndexedDB (or a full disk) must not break a run. */
async function saveToHistory(save: () => Promise<unknown>): Promise<void> {
  try {
    await save();
  } catch (error) {
    console.warn("[history] run not saved:", error instanceof Error ? error.message : error);
  }
}

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

export function useRequestToken() {
  const { mutate } = useSWRConfig();
  return useSWRMutation<TokenResult, ApiClientError, string, Record<string, never>>(
    apiKeys.token,
    sendJson("POST"),
    {
      onSuccess: async (result) => {
        await saveToHistory(() => historyStore().addRun({ exchange: result.exchange, token: result.token }));
        void mutate(apiKeys.history);
        void mutate(apiKeys.session);
      },
    },
  );
}

export type InquiryInput<O extends InquiryOperation> = O extends "gift_balance_inquiry"
  ? GiftBalanceInquiryInput
  : BalanceInquiryInput;

/**
 * Runs one inquiry. The exchange record comes back whatever the upstream answered (2xx, 4xx, 5xx, not
 * JSON); an ApiClientError means the console could not get an answer (no credentials, timeout, …).
 */
export function useRunInquiry<O extends InquiryOperation>(operation: O) {
  const { mutate } = useSWRConfig();
  return useSWRMutation<ExchangeRecord, ApiClientError, string, InquiryInput<O>>(
    inquiryKey(operation),
    sendJson("POST"),
    {
      onSuccess: async (exchange) => {
        await saveToHistory(() => historyStore().addRun({ exchange }));
        void mutate(apiKeys.history);
        // A run may have acquired or renewed the token.
        void mutate(apiKeys.session);
      },
    },
  );
}

/**
 * Lookup Transaction by Request Id (a GET; `arg` is the Request Id). Like an inquiry, the record comes back
 * whatever the upstream answered: a 404 is the upstream saying it has no such transaction.
 */
export function useLookupTransaction() {
  const { mutate } = useSWRConfig();
  return useSWRMutation<ExchangeRecord, ApiClientError, string, string>(
    apiKeys.transactionLookupPrefix,
    (_prefix, { arg }) => getJson<ExchangeRecord>(transactionLookupKey(arg)),
    {
      onSuccess: async (exchange) => {
        await saveToHistory(() => historyStore().addRun({ exchange }));
        void mutate(apiKeys.history);
        void mutate(apiKeys.session);
      },
    },
  );
}
