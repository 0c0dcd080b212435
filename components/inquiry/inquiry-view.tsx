"use client";

import { useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { errorDetails } from "@/lib/shared/error-details";
import { INQUIRY_OPERATIONS, type InquiryOperation } from "@/lib/shared/operations";
import { DEMO_LOCATION_ID } from "@/lib/shared/sandbox-demo";
import { environmentLabel } from "@/lib/client/environments";
import { draftFromForm, type FreeFormDraft } from "@/lib/client/free-form-draft";
import { chooseOperation, storedOperation, subscribeOperation } from "@/lib/client/preferences";
import { useSession } from "@/lib/client/use-session-api";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { RunShortcutHint } from "@/components/ui/kbd";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { ApiErrorAlert } from "@/components/exchange/api-error-alert";
import { ProductionConfirmDialog } from "@/components/exchange/production-guard";
import { FreeFormForm } from "./free-form-form";
import { InquiryFields } from "./inquiry-fields";
import { InquiryResultArea } from "./inquiry-result-area";
import { OPERATION_CHOICES, OperationChoice } from "./operation-choice";
import { RetryNotice } from "./retry-notice";
import { useInquiryForm, type InquiryFormValues } from "./use-inquiry-form";
import { useInquiryRun } from "./use-inquiry-run";

const DEFAULT_OPERATION: InquiryOperation = "gift_balance_inquiry";
const currentOperation = () => storedOperation(INQUIRY_OPERATIONS) ?? DEFAULT_OPERATION;

/** /inquiry: the form (left) and what the run returned (right), composed from the form and run hooks. */
export function InquiryView() {
  const { data: session } = useSession();
  // The operation is remembered per browser: a support agent who chose Balance Inquiry keeps it.
  const operation = useSyncExternalStore(subscribeOperation, currentOperation, () => DEFAULT_OPERATION);
  const production = session?.environment === "production";
  const embeddedAvailable = Boolean(session?.environments.some((item) => item.name === "embedded"));
  // The sandbox accepts any location: its demo one lets a first inquiry run with only a card typed.
  const form = useInquiryForm(session?.environment === "embedded" ? DEMO_LOCATION_ID : "");
  const inquiry = useInquiryRun({ production, onError: form.showServerErrors });
  const { guard } = inquiry;
  const runButton = useRef<HTMLButtonElement>(null);
  // "Edit request" mode: the request the form would send, as the engineer now shapes it.
  const [draft, setDraft] = useState<FreeFormDraft | null>(null);
  const refusedHeader = inquiry.error ? errorDetails(inquiry.error, "header_not_allowed") : null;
  const refused =
    refusedHeader && inquiry.error ? { header: refusedHeader.header, message: inquiry.error.message } : null;

  // Run pressed while a test card's number is on its way: it runs once the field shows that number. A ref, as
  // the number arrives in a handler made before Run was pressed; the state shows the Run button busy meanwhile.
  const runQueued = useRef(false);
  const [waitingForCard, setWaitingForCard] = useState(false);
  const queueRun = (queued: boolean) => {
    runQueued.current = queued;
    setWaitingForCard(queued);
  };

  function run(overrides?: Partial<InquiryFormValues>) {
    if (guard.isLocked()) return;
    const submission = form.submission(operation, overrides);
    if (submission) guard.start(submission);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (form.cardFilling) queueRun(true);
    else run();
  }

  function fillTestCard(cardNumber: string) {
    form.setValue("cardNumber", cardNumber);
    if (!runQueued.current) return;
    queueRun(false);
    run({ cardNumber });
  }

  function cardFilling(filling: boolean) {
    form.setCardFilling(filling);
    // A number that did not come (its error shows under the choice) runs nothing.
    if (!filling) queueRun(false);
  }

  async function connectWithDemoCredentials() {
    // The alert that held the button is gone: focus goes to what the user does next.
    if (await inquiry.connectWithDemoCredentials()) runButton.current?.focus();
  }

  const choice = OPERATION_CHOICES[operation];
  return (
    <>
      <PageHeader
        title="Inquiry"
        description="Look up a card's balance with Gift Balance Inquiry or Balance Inquiry and see exactly what went over the wire."
      />
      <div
        className={cx(
          "grid items-start gap-6",
          // The editor's header rows need room for a name and its value side by side.
          draft
            ? "lg:grid-cols-[minmax(0,34rem)_minmax(0,1fr)]"
            : "lg:grid-cols-[minmax(0,25rem)_minmax(0,1fr)]",
        )}
      >
        <Panel title="Request" titleId="inquiry-form-title" className="lg:sticky lg:top-32">
          {draft ? (
            <FreeFormForm
              draft={draft}
              onChange={setDraft}
              onLeave={() => setDraft(null)}
              onSend={(input) => inquiry.freeFormGuard.start(input)}
              busy={inquiry.running}
              refused={refused}
              production={production}
            />
          ) : (
            <form
              data-run-shortcut
              noValidate
              onSubmit={submit}
              className="space-y-4"
              aria-labelledby="inquiry-form-title"
            >
              <OperationChoice value={operation} onChange={chooseOperation} />
              <InquiryFields
                operation={operation}
                values={form.values}
                errors={form.errors}
                onChange={form.setValue}
                cardInput={form.cardInput}
                environment={session?.environment}
                onTestCard={fillTestCard}
                onCardFilling={cardFilling}
              />
              <div className="border-t border-default pt-4">
                <Button
                  ref={runButton}
                  type="submit"
                  variant={production && operation === "gift_balance_inquiry" ? "danger" : "primary"}
                  size="lg"
                  busy={inquiry.running || waitingForCard}
                  className="w-full"
                >
                  {choice.run}
                  <RunShortcutHint />
                </Button>
                <p className="mt-2 text-center text-xs text-muted">
                  {session ? (
                    <>
                      on{" "}
                      <span className={cx("font-medium", production ? "text-danger" : "text-fg")}>
                        {environmentLabel(session.environment)}
                      </span>
                      {production && operation === "gift_balance_inquiry" ? " · asks for confirmation" : ""}
                    </>
                  ) : (
                    " "
                  )}
                </p>
                <Button
                  variant="ghost"
                  size="sm"
                  className="mt-2 w-full"
                  // The request it opens is the form's: not while a test card's number is on its way.
                  busy={form.cardFilling}
                  onClick={() => setDraft(draftFromForm({ operation, ...form.values }))}
                >
                  Edit request
                </Button>
              </div>
            </form>
          )}
        </Panel>

        <InquiryResultArea
          running={inquiry.running}
          run={inquiry.run}
          notice={
            inquiry.connectedNotice ? (
              <p role="status" className="text-sm text-success">
                Connected with the demo credentials of the embedded sandbox. Run the inquiry again.
              </p>
            ) : inquiry.retry ? (
              <RetryNotice
                retry={inquiry.retry}
                running={inquiry.running}
                run={inquiry.run}
                error={inquiry.error}
              />
            ) : null
          }
          errorAlert={
            inquiry.error ? (
              <ApiErrorAlert
                error={inquiry.error}
                actions={{
                  ...(embeddedAvailable
                    ? { onUseDemoCredentials: () => void connectWithDemoCredentials() }
                    : {}),
                  useDemoBusy: inquiry.connecting,
                  ...(inquiry.lastOperation === "gift_balance_inquiry"
                    ? { onRetrySameRequestId: inquiry.retrySameRequestId }
                    : {}),
                }}
              />
            ) : null
          }
        />
      </div>

      <ProductionConfirmDialog
        guard={inquiry.freeFormGuard}
        title="Send a Gift Balance Inquiry in production?"
        confirmLabel="Send in production"
      >
        <p>
          A Gift Balance Inquiry records a real transaction: it gets a transaction_id and appears in the
          card&apos;s transaction history (API specification §3, §4.3).
        </p>
      </ProductionConfirmDialog>
      <ProductionConfirmDialog
        guard={guard}
        title={`Run a ${OPERATION_CHOICES[guard.confirming?.operation ?? operation].label} in production?`}
        confirmLabel={`Run ${OPERATION_CHOICES[guard.confirming?.operation ?? operation].label} in production`}
      >
        <p>
          A Gift Balance Inquiry records a real transaction: it gets a transaction_id and appears in the
          card&apos;s transaction history (API specification §3, §4.3).
        </p>
        <p>To read balances without recording anything, use Balance Inquiry instead.</p>
      </ProductionConfirmDialog>
    </>
  );
}
