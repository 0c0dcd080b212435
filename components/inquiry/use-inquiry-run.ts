"use client";

import { useRef, useState } from "react";
import type { ExchangeRecord, FreeFormRequestInput, GiftBalanceInquiryInput } from "@/lib/shared/contracts";
import type { InquiryOperation } from "@/lib/shared/operations";
import type { ApiClientError } from "@/lib/client/fetcher";
import { freeFormHeadersWithRequestId } from "@/lib/client/outcome-unknown";
import { storeLocationId } from "@/lib/client/preferences";
import { useRunFreeForm, useRunInquiry } from "@/lib/client/use-console-api";
import { useSaveCredentials } from "@/lib/client/use-session-api";
import { useGuardedRun } from "@/components/exchange/production-guard";
import type { InquirySubmission } from "./use-inquiry-form";

interface InquiryRunner {
  trigger: (input: GiftBalanceInquiryInput) => Promise<ExchangeRecord>;
  isMutating: boolean;
}

export interface InquiryRun {
  exchange: ExchangeRecord;
  /** The number as typed, kept in memory for "include full card number"; never stored. */
  typedCard: string;
}

/** One runner per inquiry operation of the registry (a new one must be named here), and whether one runs. */
function useInquiryRunners() {
  const gift = useRunInquiry("gift_balance_inquiry");
  const balance = useRunInquiry("balance_inquiry");
  const freeForm = useRunFreeForm();
  const runners: Record<InquiryOperation, InquiryRunner> = {
    gift_balance_inquiry: gift,
    balance_inquiry: balance,
  };
  const running = freeForm.isMutating || Object.values(runners).some((runner) => runner.isMutating);
  return { runners, freeForm, running };
}

/** The card of a free-form JSON body, as typed, for "include full card number" in the copied code. */
function typedCardOf(input: FreeFormRequestInput): string {
  try {
    const card = (JSON.parse(input.body ?? "") as { data?: { card_number?: unknown } } | null)?.data
      ?.card_number;
    return typeof card === "string" ? card : "";
  } catch {
    return "";
  }
}

/** The request editor's sends: shown where the form's runs are, a Gift Balance Inquiry in production confirmed. */
function useFreeFormRun({
  trigger,
  production,
  start,
  setRun,
  setError,
}: {
  trigger: (input: FreeFormRequestInput) => Promise<ExchangeRecord>;
  production: boolean;
  start: (input: FreeFormRequestInput) => void;
  setRun: (run: InquiryRun) => void;
  setError: (error: ApiClientError) => void;
}) {
  return useGuardedRun<FreeFormRequestInput>({
    needsConfirmation: (input) => production && input.operation === "gift_balance_inquiry",
    run: async (input) => {
      start(input);
      try {
        setRun({ exchange: await trigger(input), typedCard: typedCardOf(input) });
      } catch (caught) {
        setError(caught as ApiClientError);
      }
    },
  });
}

/** A send of a Request Id sent before, by "Retry with the same Request Id": which retry, and when. */
export interface RetryAttempt {
  requestId: string;
  /** 1 for the first retry. */
  number: number;
  at: Date;
}

/** The Request Id a free-form request goes with, when it names one. */
function freeFormRequestId(input: FreeFormRequestInput): string | undefined {
  const header = Object.entries(input.headers ?? {}).find(([name]) => name.toLowerCase() === "x-request-id");
  return header?.[1] ?? input.request_id;
}

/**
 * Which send is a retry: one whose Request Id is the one "Retry with the same Request Id" was pressed for. The
 * page says so, and what came of it, rather than look as it did before.
 */
function useRetryAttempts() {
  const retryOf = useRef<string | null>(null);
  const [retry, setRetry] = useState<RetryAttempt | null>(null);
  return {
    retry,
    retrying: (requestId: string) => {
      retryOf.current = requestId;
    },
    sent: (requestId: string | undefined) => {
      if (!requestId || requestId !== retryOf.current) {
        retryOf.current = null;
        setRetry(null);
        return;
      }
      setRetry((previous) => ({
        requestId,
        number: previous?.requestId === requestId ? previous.number + 1 : 1,
        at: new Date(),
      }));
    },
  };
}

type LastSent = { submission: InquirySubmission } | { freeForm: FreeFormRequestInput };

/** The inquiry operation of the last send (a free-form lookup has none): it decides whether a retry is offered. */
function lastOperationOf(last: LastSent | null): InquiryOperation | null {
  if (!last) return null;
  if ("submission" in last) return last.submission.operation;
  return last.freeForm.operation === "gift_balance_inquiry" ? "gift_balance_inquiry" : null;
}

/** The same form submission again under the Request Id it was first sent with. */
function formRetry(submission: InquirySubmission, requestId: string): InquirySubmission {
  return { ...submission, input: { ...submission.input, request_id: requestId } };
}

/** The same free-form request again, its headers and body, under the Request Id it was first sent with. */
function freeFormRetry(input: FreeFormRequestInput, requestId: string): FreeFormRequestInput {
  const { request_id: _given, ...rest } = input;
  return { ...rest, headers: freeFormHeadersWithRequestId(input.headers, requestId) };
}

/** "Use demo credentials" after a run failed for want of credentials: saves them and says so. */
function useDemoConnection(setError: (error: ApiClientError | null) => void) {
  const saveCredentials = useSaveCredentials();
  const [connectedNotice, setConnectedNotice] = useState(false);

  /** Saves the demo credentials; true when they were saved. */
  async function connect(): Promise<boolean> {
    try {
      await saveCredentials.trigger({ profile: "demo" });
      setError(null);
      setConnectedNotice(true);
      return true;
    } catch (caught) {
      setError(caught as ApiClientError);
      return false;
    }
  }

  return { connectedNotice, setConnectedNotice, connecting: saveCredentials.isMutating, connect };
}

/** What the last send left: its result or error, what it was (for a retry), and whether it was a retry. */
function useSendState() {
  const [run, setRun] = useState<InquiryRun | null>(null);
  const [error, setError] = useState<ApiClientError | null>(null);
  /** The last send, form or request editor, for "Retry with the same Request Id" after no answer. */
  const [last, setLast] = useState<LastSent | null>(null);
  const demo = useDemoConnection(setError);
  const attempts = useRetryAttempts();

  /** A new send replaces the previous result at once: an old balance never stands under a new error. */
  function begin(sent: LastSent, requestId: string | undefined) {
    setRun(null);
    setError(null);
    demo.setConnectedNotice(false);
    setLast(sent);
    attempts.sent(requestId);
  }

  return { run, setRun, error, setError, last, demo, attempts, begin };
}

/**
 * Runs the inquiry form's submissions: a Gift Balance Inquiry in production is confirmed first, a new run
 * replaces the previous result at once, and after an error the page can retry with the same Request Id or
 * connect with the demo credentials.
 */
export function useInquiryRun({
  production,
  onError,
}: {
  production: boolean;
  /** Called with each console error, e.g. to show a `validation_failed` answer's fields in the form. */
  onError: (error: ApiClientError) => void;
}) {
  const { runners, freeForm, running } = useInquiryRunners();
  const { run, setRun, error, setError, last, demo, attempts, begin } = useSendState();

  async function execute(submission: InquirySubmission) {
    storeLocationId(submission.input.location_id);
    begin({ submission }, submission.input.request_id);
    try {
      const exchange = await runners[submission.operation].trigger(submission.input);
      setRun({ exchange, typedCard: submission.typedCard });
    } catch (caught) {
      const failure = caught as ApiClientError;
      setError(failure);
      onError(failure);
    }
  }

  const freeFormGuard = useFreeFormRun({
    trigger: freeForm.trigger,
    production,
    start: (input) => begin({ freeForm: input }, freeFormRequestId(input)),
    setRun,
    setError,
  });

  // A Gift Balance Inquiry in production records a real transaction: ask first.
  const guard = useGuardedRun<InquirySubmission>({
    needsConfirmation: (submission) => production && submission.operation === "gift_balance_inquiry",
    run: execute,
  });

  function retrySameRequestId(requestId: string) {
    attempts.retrying(requestId);
    if (last && "freeForm" in last) freeFormGuard.start(freeFormRetry(last.freeForm, requestId));
    else if (last) guard.start(formRetry(last.submission, requestId));
  }

  return {
    guard,
    freeFormGuard,
    run,
    error,
    running,
    lastOperation: lastOperationOf(last),
    /** The last send when it was a retry with the same Request Id; null after any other. */
    retry: attempts.retry,
    connectedNotice: demo.connectedNotice,
    connecting: demo.connecting,
    retrySameRequestId,
    connectWithDemoCredentials: demo.connect,
  };
}
