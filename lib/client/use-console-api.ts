/**
 * React hooks over the console's HTTP interface that run the API: token requests, inquiries and transaction
 * lookups, each saved to the browser's history. The session's hooks (read by every page's header) are in
 * use-session-api.ts, so pages that run nothing do not load the history store.
 */
import { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import type {
  BalanceInquiryInput,
  EnvironmentName,
  ExchangeRecord,
  FreeFormRequestInput,
  GiftBalanceInquiryInput,
  InquiryAnswer,
  TokenResult,
} from "@/lib/shared/contracts";
import { apiKeys, inquiryKey, transactionLookupKey, type InquiryOperation } from "./api-keys";
import { operationLabel } from "@/lib/shared/operations";
import { getJson, sendJson, type ApiClientError } from "./fetcher";
import type { NewRun } from "./history-run";
import { historyStore, recordedCardFields } from "./history-store";
import { reportHistorySaveFailure } from "./history-save-status";
import {
  isNoAnswerError,
  outcomeUnknownFreeFormRecord,
  outcomeUnknownRecord,
  requestIdOfError,
} from "./outcome-unknown";
import { useSession } from "./use-session-api";

/**
 * History must not break a run (a browser without IndexedDB, a full disk), but a run that was not kept is
 * said on the page (history-save-status.ts), never dropped silently. Each hook saves inside its fetcher, before
 * the result reaches the page (SWR's onSuccess runs after it, unawaited): someone who leaves the page as soon as
 * the result shows would otherwise leave with the write still open, and the browser may drop it.
 */
async function saveToHistory(run: NewRun): Promise<void> {
  try {
    await historyStore().addRun(run);
  } catch (error) {
    const { exchange } = run;
    const card = recordedCardFields(exchange).cardNumber;
    reportHistorySaveFailure(`${operationLabel(exchange.operation)}${card ? ` ${card}` : ""}`, error);
  }
}

export function useRequestToken() {
  const { mutate } = useSWRConfig();
  const post = sendJson<TokenResult, Record<string, never>>("POST");
  return useSWRMutation<TokenResult, ApiClientError, string, Record<string, never>>(
    apiKeys.token,
    async (url, options) => {
      const result = await post(url, options);
      await saveToHistory({ exchange: result.exchange, token: result.token });
      return result;
    },
    {
      onSuccess: () => {
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
 * One send of an exchange from the page: names the environment the page shows when the input does not, posts it,
 * takes the session the answer carries, and keeps the exchange in History; a send that got no answer is handed
 * to `keepWithoutAnswer` (kept as "outcome unknown" when it may have reached the upstream).
 */
function useExchangeMutation<I extends { environment?: EnvironmentName }>(
  key: string,
  keepWithoutAnswer: (input: I, error: ApiClientError, started: Date) => Promise<void>,
) {
  const { mutate } = useSWRConfig();
  // The session as the page shows it, the server-rendered fallback included (the cache alone may not hold it
  // yet on a page that has not revalidated the session). useSWRMutation calls the latest render's fetcher.
  const shownEnvironment = useSession().data?.environment;
  const post = sendJson<InquiryAnswer, I>("POST");
  return useSWRMutation<ExchangeRecord, ApiClientError, string, I>(
    key,
    async (url, { arg }) => {
      const shown = shownEnvironment;
      const input = { ...arg, ...(shown && !arg.environment ? { environment: shown } : {}) };
      const started = new Date();
      try {
        const { session, ...exchange } = await post(url, { arg: input });
        void (session ? mutate(apiKeys.session, session, { revalidate: false }) : mutate(apiKeys.session));
        await saveToHistory({ exchange });
        return exchange;
      } catch (caught) {
        await keepWithoutAnswer(input, caught as ApiClientError, started);
        void mutate(apiKeys.history);
        throw caught;
      }
    },
    {
      onSuccess: () => void mutate(apiKeys.history),
      onError: (error) => {
        if (error.code === "environment_changed") void mutate(apiKeys.session);
      },
    },
  );
}

/**
 * Runs one inquiry. The exchange record comes back whatever the upstream answered (2xx, 4xx, 5xx, not
 * JSON); an ApiClientError means the console could not get an answer (no credentials, timeout, …).
 *
 * Every run names the environment the page shows (docs/design.md §6): when another tab switched it, the server
 * answers 409 `environment_changed` and sends nothing; the session is then read again so that the page shows
 * the new one. A Gift Balance Inquiry that got no answer (502/504) is kept in history as "outcome unknown"
 * with the Request Id that was sent. The answer carries the session as it now stands (a run may have acquired
 * or renewed the token): the page's session view takes it from there, without asking GET /api/session again.
 */
export function useRunInquiry<O extends InquiryOperation>(operation: O) {
  return useExchangeMutation<InquiryInput<O>>(inquiryKey(operation), (input, error, started) =>
    keepGiftWithoutAnswer(operation, input, error, started, outcomeUnknownRecord),
  );
}

/**
 * A Gift Balance Inquiry (from the form or free-form) that got no answer, kept in history as "outcome unknown"
 * with the Request Id that was sent: it may have reached the upstream.
 */
async function keepGiftWithoutAnswer<I extends { environment?: EnvironmentName }>(
  operation: string,
  input: I,
  error: ApiClientError,
  started: Date,
  toRecord: (
    noAnswer: Omit<Parameters<typeof outcomeUnknownRecord>[0], "input"> & { input: I },
  ) => ExchangeRecord | null,
) {
  const requestId = requestIdOfError(error);
  if (operation !== "gift_balance_inquiry" || !isNoAnswerError(error) || !requestId) return;
  if (!input.environment) return;
  const exchange = toRecord({
    input,
    requestId,
    error,
    environment: input.environment,
    startedAt: started,
    durationMs: Date.now() - started.getTime(),
  });
  if (exchange) await saveToHistory({ exchange });
}

/**
 * A free-form request (`POST /api/requests`): the caller's headers and raw body for one card operation. Like an
 * inquiry it names the environment the page shows, answers the exchange record whatever the upstream said, and
 * is kept in history (masked).
 */
export function useRunFreeForm() {
  return useExchangeMutation<FreeFormRequestInput>(apiKeys.freeFormRequests, (input, error, started) =>
    keepGiftWithoutAnswer(input.operation, input, error, started, outcomeUnknownFreeFormRecord),
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
    async (_prefix, { arg }) => {
      const exchange = await getJson<ExchangeRecord>(transactionLookupKey(arg));
      await saveToHistory({ exchange });
      return exchange;
    },
    {
      onSuccess: () => {
        void mutate(apiKeys.history);
        void mutate(apiKeys.session);
      },
    },
  );
}
