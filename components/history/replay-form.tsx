"use client";

import { CARD_NUMBER_RULE, isCardNumber, normalizeCardNumber } from "@/lib/shared/card-number";
import { useId, useState, type FormEvent } from "react";
import { operationLabel } from "@/lib/shared/operations";
import { requestCardModes } from "@/lib/shared/exchange-summary";
import { matchesMask } from "@/lib/client/card-mask";
import { environmentLabel } from "@/lib/client/environments";
import type { HistoryRun } from "@/lib/client/history-store";
import { useSession } from "@/lib/client/use-session-api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CardNumberField, LocationIdField } from "@/components/exchange/card-fields";
import { ProductionConfirmDialog, useGuardedRun } from "@/components/exchange/production-guard";
import { maskedCardsIn } from "@/lib/client/free-form-draft";
import { ReplayOutcome } from "./replay-outcome";
import { useReplay } from "./use-replay";

/**
 * Re-runs a history entry with the same inputs. History keeps card numbers masked only, and the console
 * keeps no full number anywhere (not even in memory across pages), so the user types the card number again;
 * it must match the recorded mask, so a replay cannot silently run a different card.
 */
export function ReplayForm({
  run,
  reuseRequestId,
  onOpenRun,
}: {
  run: HistoryRun;
  /** Send the original X-Request-Id again (Gift Balance Inquiry): the sandbox answers 409 duplicate_request_id. */
  reuseRequestId: boolean;
  onOpenRun: (id: string) => void;
}) {
  const ids = { card: useId(), location: useId(), reuse: useId(), result: useId() };
  const { exchange } = run;
  const { data: session } = useSession();
  const [card, setCard] = useState("");
  const [location, setLocation] = useState(run.location_id ?? "");
  const [reuse, setReuse] = useState(reuseRequestId);
  const [cardError, setCardError] = useState<string | null>(null);
  const { busy, result, replay } = useReplay(exchange, { location, reuse });

  const isToken = exchange.operation === "token";
  const isGift = exchange.operation === "gift_balance_inquiry";
  /** A lookup (or token request) needs no card: it is run again as recorded. */
  const isLookup = exchange.operation === "transaction_lookup";
  // A free-form request is sent again as recorded: a card is asked for only when its body held one.
  const freeFormCard =
    exchange.free_form && typeof exchange.request.body === "string"
      ? (maskedCardsIn(exchange.request.body)[0] ?? null)
      : null;
  const needsCard = !isToken && !isLookup && (!exchange.free_form || freeFormCard !== null);
  const recordedMask = run.card?.masked ?? freeFormCard;
  const { entryMode, pinMode } = requestCardModes(exchange);
  const originalRequestId = exchange.request_id ?? null;
  const production = session?.environment === "production";
  // A Gift Balance Inquiry in production records a real transaction.
  const guard = useGuardedRun<string>({ needsConfirmation: () => isGift && production, run: replay });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let cardNumber = "";
    if (needsCard) {
      cardNumber = normalizeCardNumber(card);
      if (!isCardNumber(cardNumber)) return setCardError(`Enter the full card number: ${CARD_NUMBER_RULE}.`);
      if (recordedMask && !matchesMask(recordedMask, cardNumber)) {
        return setCardError(`This is not ${recordedMask}, the card of the original run.`);
      }
    }
    setCardError(null);
    guard.start(cardNumber);
  }

  const currentEnvironment = session?.environment;
  return (
    <div className="space-y-5">
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Replay">
        {currentEnvironment && currentEnvironment !== exchange.environment ? (
          <Alert tone="warning" title="Different environment">
            <p>
              The original ran against {environmentLabel(exchange.environment)}; the replay runs against the
              current environment, {environmentLabel(currentEnvironment)}.
            </p>
          </Alert>
        ) : null}
        {isToken ? (
          <p className="text-sm text-body">
            Requests a new token with the credentials of this session. The token itself stays on the server.
          </p>
        ) : isLookup ? (
          <p className="text-sm text-body">
            Looks up Request Id <code className="font-mono break-all">{originalRequestId}</code> again.
          </p>
        ) : exchange.free_form && !needsCard ? (
          <p className="text-sm text-body">
            Sends the recorded headers and body again as a free-form request.
          </p>
        ) : exchange.free_form ? (
          <div className="space-y-2">
            <p className="text-sm text-body">
              Sends the recorded headers and body again as a free-form request, with the card typed in place
              of its mask.
            </p>
            <CardNumberField
              id={ids.card}
              value={card}
              onChange={(event) => setCard(event.target.value)}
              required
              placeholder={recordedMask ?? CARD_NUMBER_RULE}
              error={cardError}
              hint={`History keeps only ${recordedMask ?? "the masked number"}: type the full number again.`}
            />
          </div>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            <CardNumberField
              id={ids.card}
              value={card}
              onChange={(event) => setCard(event.target.value)}
              required
              placeholder={run.card?.masked ?? CARD_NUMBER_RULE}
              error={cardError}
              hint={`History keeps only ${run.card?.masked ?? "the masked number"}: type the full number again.`}
            />
            <LocationIdField
              id={ids.location}
              value={location}
              onChange={(event) => setLocation(event.target.value)}
              maxLength={64}
              hint={`As recorded${entryMode ? ` · entry_mode ${entryMode}` : ""}${pinMode ? ` · pin_mode ${pinMode}` : ""}`}
            />
          </div>
        )}
        {isGift && originalRequestId ? (
          <div className="rounded-lg border border-default px-4 py-3">
            <label htmlFor={ids.reuse} className="flex items-start gap-2.5 text-sm">
              <input
                id={ids.reuse}
                type="checkbox"
                checked={reuse}
                onChange={(event) => setReuse(event.target.checked)}
                className="mt-0.5 size-4 accent-indigo-600"
              />
              <span>
                <span className="font-medium text-fg">Reuse the same Request Id</span>{" "}
                <code className="font-mono text-xs break-all text-body">{originalRequestId}</code>
                <span className="mt-0.5 block text-xs text-muted">
                  X-Request-Id must be unique for each Gift Balance Inquiry (API specification §8): the
                  sandbox answers 409 duplicate_request_id and records nothing. Unchecked, the server makes a
                  fresh one.
                </span>
              </span>
            </label>
          </div>
        ) : null}
        <div className="flex justify-end">
          <Button type="submit" variant="primary" busy={busy}>
            {isToken ? "Request a new token" : `Replay ${operationLabel(exchange.operation)}`}
          </Button>
        </div>
      </form>

      <div aria-live="polite" aria-labelledby={ids.result}>
        <h3 id={ids.result} className="sr-only">
          Replay result
        </h3>
        <ReplayOutcome result={result} originalRunId={run.id} onOpenRun={onOpenRun} />
      </div>
      <ProductionConfirmDialog
        guard={guard}
        title="Replay a Gift Balance Inquiry in production?"
        confirmLabel="Replay in production"
      >
        <p>
          A Gift Balance Inquiry records a real transaction: it gets a transaction_id and appears in the
          card&apos;s transaction history (API specification §3, §4.3).
        </p>
      </ProductionConfirmDialog>
    </div>
  );
}
