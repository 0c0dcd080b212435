"use client";

import { CARD_NUMBER_RULE, isCardNumber } from "@/lib/api/card-number";
import { useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import type { ExchangeRecord, GiftBalanceInquiryInput } from "@/lib/api/contracts";
import type { InquiryOperation } from "@/lib/client/api-keys";
import { environmentLabel } from "@/lib/client/environments";
import type { ApiClientError } from "@/lib/client/fetcher";
import {
  chooseOperation,
  storedLocationId,
  storedOperation,
  storeLocationId,
  subscribeOperation,
} from "@/lib/client/preferences";
import { newRequestId } from "@/lib/client/request-id";
import { useRunInquiry, useSaveCredentials, useSession } from "@/lib/client/use-console-api";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { Field } from "@/components/ui/field";
import { RunShortcutHint } from "@/components/ui/kbd";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiErrorAlert } from "@/components/exchange/api-error-alert";
import { ProductionConfirmDialog, useGuardedRun } from "@/components/exchange/production-guard";
import { InquiryResult } from "./inquiry-result";
import { OPERATION_CHOICES, OperationChoice } from "./operation-choice";

const PRINTABLE = /^[\x20-\x7E]+$/;

interface FormValues {
  cardNumber: string;
  /** null until edited: the remembered location_id shows meanwhile. */
  locationId: string | null;
  entryMode: string;
  pinMode: string;
  requestId: string;
}

type FieldErrors = Partial<Record<keyof FormValues, string>>;

const noSubscription = () => () => {};
const DEFAULT_OPERATION: InquiryOperation = "gift_balance_inquiry";
const currentOperation = () => storedOperation() ?? DEFAULT_OPERATION;

function validate(
  values: Required<{ [K in keyof FormValues]: string }>,
  operation: InquiryOperation,
): FieldErrors {
  const errors: FieldErrors = {};
  const card = values.cardNumber.replace(/[\s-]/g, "");
  if (!card) errors.cardNumber = "Enter a card number.";
  else if (!isCardNumber(card)) errors.cardNumber = `A card number is ${CARD_NUMBER_RULE}.`;
  const printable = (
    key: Exclude<keyof FormValues, "cardNumber">,
    label: string,
    max: number,
    required: boolean,
  ) => {
    const value = values[key].trim();
    if (!value) {
      if (required) errors[key] = `Enter ${label}.`;
    } else if (!PRINTABLE.test(value) || value.length > max) {
      errors[key] = `Printable characters only, at most ${max}.`;
    }
  };
  printable("locationId", "a location_id", 64, true);
  printable("entryMode", "an entry_mode", 32, true);
  printable("pinMode", "a pin_mode", 32, true);
  if (operation === "gift_balance_inquiry") printable("requestId", "a Request Id", 128, false);
  return errors;
}

interface Run {
  exchange: ExchangeRecord;
  /** The number as typed, kept in memory for "include full card number"; never stored. */
  typedCard: string;
}

/** One press of Run: its inputs, and for a Gift Balance Inquiry the Request Id made for it, once. */
interface Submission {
  operation: InquiryOperation;
  input: GiftBalanceInquiryInput;
  typedCard: string;
}

/** Field names of the console's validation details → the form's fields. */
const FIELD_OF: Record<string, keyof FormValues> = {
  card_number: "cardNumber",
  location_id: "locationId",
  entry_mode: "entryMode",
  pin_mode: "pinMode",
  request_id: "requestId",
};

function fieldErrorsOf(error: ApiClientError): FieldErrors {
  const fields = (error.details as { fields?: Record<string, string[]> } | undefined)?.fields ?? {};
  const errors: FieldErrors = {};
  for (const [name, messages] of Object.entries(fields)) {
    const field = FIELD_OF[name];
    if (field && messages[0]) errors[field] = messages[0];
  }
  return errors;
}

function EmptyResult() {
  return (
    <div className="flex min-h-[22rem] flex-col items-center justify-center rounded-xl border border-dashed border-slate-300 px-6 text-center dark:border-slate-700">
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        className="size-10 text-slate-400"
        aria-hidden="true"
      >
        <path
          strokeLinecap="round"
          strokeLinejoin="round"
          d="M2.25 8.25h19.5M2.25 9h19.5m-16.5 5.25h6m-6 2.25h3m-3.75 3h15a2.25 2.25 0 0 0 2.25-2.25V6.75A2.25 2.25 0 0 0 19.5 4.5h-15a2.25 2.25 0 0 0-2.25 2.25v10.5A2.25 2.25 0 0 0 4.5 19.5Z"
        />
      </svg>
      <p className="mt-3 font-medium text-slate-900 dark:text-slate-100">No result yet</p>
      <p className="mt-1 max-w-sm text-sm text-slate-600 dark:text-slate-400">
        Enter a card number and run an inquiry. The result appears here with the exact request and response.
      </p>
    </div>
  );
}

function RunningResult() {
  return (
    <div
      className="min-h-[22rem] rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      aria-busy="true"
    >
      <span className="sr-only" role="status">
        Running…
      </span>
      <Skeleton className="h-5 w-56" />
      <Skeleton className="mt-6 h-4 w-24" />
      <Skeleton className="mt-2 h-10 w-40" />
      <Skeleton className="mt-6 h-4 w-full" />
      <Skeleton className="mt-3 h-4 w-5/6" />
      <Skeleton className="mt-3 h-4 w-4/6" />
    </div>
  );
}

export function InquiryView() {
  const { data: session } = useSession();
  // The operation is remembered per browser: a support agent who chose Balance Inquiry keeps it.
  const operation = useSyncExternalStore(subscribeOperation, currentOperation, () => DEFAULT_OPERATION);
  const [values, setValues] = useState<FormValues>({
    cardNumber: "",
    locationId: null,
    entryMode: "keyed",
    pinMode: "none",
    requestId: "",
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [run, setRun] = useState<Run | null>(null);
  const [runError, setRunError] = useState<ApiClientError | null>(null);
  /** The last submission, for "Retry with the same Request Id" after no answer. */
  const [lastSubmission, setLastSubmission] = useState<Submission | null>(null);
  const [connectedNotice, setConnectedNotice] = useState(false);
  const gift = useRunInquiry("gift_balance_inquiry");
  const balance = useRunInquiry("balance_inquiry");
  const saveCredentials = useSaveCredentials();
  const running = gift.isMutating || balance.isMutating;
  const cardInput = useRef<HTMLInputElement>(null);
  const runButton = useRef<HTMLButtonElement>(null);

  // The remembered location_id applies until the user edits the field (read after hydration: the server
  // has no localStorage).
  const rememberedLocation = useSyncExternalStore(noSubscription, storedLocationId, () => null);
  const locationId = values.locationId ?? rememberedLocation ?? "";

  const production = session?.environment === "production";
  const embeddedAvailable = Boolean(session?.environments.some((item) => item.name === "embedded"));
  const set = (key: keyof FormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));

  async function execute(submission: Submission) {
    storeLocationId(submission.input.location_id);
    // A new run replaces the previous result at once: an old balance never stands under a new error.
    setRun(null);
    setRunError(null);
    setConnectedNotice(false);
    setLastSubmission(submission);
    try {
      const exchange =
        submission.operation === "gift_balance_inquiry"
          ? await gift.trigger(submission.input)
          : await balance.trigger(submission.input);
      setRun({ exchange, typedCard: submission.typedCard });
    } catch (caught) {
      const error = caught as ApiClientError;
      setRunError(error);
      if (error.code === "validation_failed") setErrors(fieldErrorsOf(error));
    }
  }

  // A Gift Balance Inquiry in production records a real transaction: ask first.
  const guard = useGuardedRun<Submission>({
    needsConfirmation: (submission) => production && submission.operation === "gift_balance_inquiry",
    run: execute,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (guard.isLocked()) return;
    const found = validate({ ...values, locationId }, operation);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (found.cardNumber) cardInput.current?.focus();
      return;
    }
    const typedCard = values.cardNumber.replace(/[\s-]/g, "");
    const input: GiftBalanceInquiryInput = {
      card_number: typedCard,
      location_id: locationId.trim(),
      entry_mode: values.entryMode.trim(),
      pin_mode: values.pinMode.trim(),
      // Made here, once per submission: a retry of this submission sends the same id.
      ...(operation === "gift_balance_inquiry"
        ? { request_id: values.requestId.trim() || newRequestId() }
        : {}),
    };
    guard.start({ operation, input, typedCard });
  }

  function retrySameRequestId(requestId: string) {
    if (!lastSubmission) return;
    guard.start({ ...lastSubmission, input: { ...lastSubmission.input, request_id: requestId } });
  }

  async function connectWithDemoCredentials() {
    try {
      await saveCredentials.trigger({ profile: "demo" });
      setRunError(null);
      setConnectedNotice(true);
      // The alert that held the button is gone: focus goes to what the user does next.
      runButton.current?.focus();
    } catch (caught) {
      setRunError(caught as ApiClientError);
    }
  }

  const choice = OPERATION_CHOICES[operation];
  return (
    <>
      <PageHeader
        title="Inquiry"
        description="Look up a card's balance with Gift Balance Inquiry or Balance Inquiry and see exactly what went over the wire."
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,25rem)_minmax(0,1fr)]">
        <Panel title="Request" titleId="inquiry-form-title" className="lg:sticky lg:top-32">
          <form
            data-run-shortcut
            noValidate
            onSubmit={submit}
            className="space-y-4"
            aria-labelledby="inquiry-form-title"
          >
            <OperationChoice value={operation} onChange={chooseOperation} />
            <Field
              ref={cardInput}
              id="card-number"
              label="Card number"
              hint="12 to 19 digits. Shown masked everywhere after this field."
              value={values.cardNumber}
              onChange={set("cardNumber")}
              error={errors.cardNumber}
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              mono
            />
            <Field
              id="location-id"
              label="Location ID"
              labelAside={
                <code className="font-mono text-xs text-slate-600 dark:text-slate-400">
                  originator.location_id
                </code>
              }
              hint="Remembered in this browser."
              value={locationId}
              onChange={set("locationId")}
              error={errors.locationId}
              autoComplete="off"
              spellCheck={false}
              mono
            />
            <div className="grid grid-cols-2 gap-3">
              <Field
                id="entry-mode"
                label="Entry mode"
                value={values.entryMode}
                onChange={set("entryMode")}
                error={errors.entryMode}
                list="entry-mode-values"
                autoComplete="off"
                spellCheck={false}
                mono
              />
              <Field
                id="pin-mode"
                label="PIN mode"
                value={values.pinMode}
                onChange={set("pinMode")}
                error={errors.pinMode}
                list="pin-mode-values"
                autoComplete="off"
                spellCheck={false}
                mono
              />
              <datalist id="entry-mode-values">
                <option value="keyed" />
              </datalist>
              <datalist id="pin-mode-values">
                <option value="none" />
              </datalist>
            </div>
            <div className={cx(operation !== "gift_balance_inquiry" && "hidden")}>
              <Field
                id="request-id"
                label="Request Id"
                labelAside={
                  <span className="text-xs text-slate-600 dark:text-slate-400">optional · X-Request-Id</span>
                }
                hint="Unique per Gift Balance Inquiry (spec §8). Empty: a fresh UUID per press of Run, kept for a retry."
                value={values.requestId}
                onChange={set("requestId")}
                error={errors.requestId}
                autoComplete="off"
                spellCheck={false}
                mono
                addon={
                  <Button
                    onClick={() => setValues((current) => ({ ...current, requestId: crypto.randomUUID() }))}
                    aria-label="New Request Id"
                    title="Generate a new Request Id"
                  >
                    New
                  </Button>
                }
              />
            </div>
            <div className="border-t border-slate-200 pt-4 dark:border-slate-800">
              <Button
                ref={runButton}
                type="submit"
                variant={production && operation === "gift_balance_inquiry" ? "danger" : "primary"}
                size="lg"
                busy={running}
                className="w-full"
              >
                {choice.run}
                <RunShortcutHint />
              </Button>
              <p className="mt-2 text-center text-xs text-slate-600 dark:text-slate-400">
                {session ? (
                  <>
                    on{" "}
                    <span
                      className={cx(
                        "font-medium",
                        production ? "text-red-700 dark:text-red-300" : "text-slate-800 dark:text-slate-200",
                      )}
                    >
                      {environmentLabel(session.environment)}
                    </span>
                    {production && operation === "gift_balance_inquiry" ? " · asks for confirmation" : ""}
                  </>
                ) : (
                  " "
                )}
              </p>
            </div>
          </form>
        </Panel>

        <div className="min-w-0 space-y-4" aria-busy={running}>
          {connectedNotice ? (
            <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300">
              Connected with the demo credentials of the embedded sandbox. Run the inquiry again.
            </p>
          ) : null}
          {runError && !running ? (
            <ApiErrorAlert
              error={runError}
              actions={{
                ...(embeddedAvailable
                  ? { onUseDemoCredentials: () => void connectWithDemoCredentials() }
                  : {}),
                useDemoBusy: saveCredentials.isMutating,
                ...(lastSubmission?.operation === "gift_balance_inquiry"
                  ? { onRetrySameRequestId: retrySameRequestId }
                  : {}),
              }}
            />
          ) : null}
          {running ? (
            <RunningResult />
          ) : run ? (
            <InquiryResult key={run.exchange.id} exchange={run.exchange} fullCardNumber={run.typedCard} />
          ) : runError ? null : (
            <EmptyResult />
          )}
        </div>
      </div>

      <ProductionConfirmDialog
        guard={guard}
        title={`Run a ${OPERATION_CHOICES[guard.confirming?.operation ?? operation].label} in production?`}
        confirmLabel={`Run ${OPERATION_CHOICES[guard.confirming?.operation ?? operation].label} in production`}
      >
        <p>
          A Gift Balance Inquiry records a real transaction: it gets a transaction_id and appears in the
          card&apos;s transaction history (spec §3, §4.3).
        </p>
        <p>To read balances without recording anything, use Balance Inquiry instead.</p>
      </ProductionConfirmDialog>
    </>
  );
}
