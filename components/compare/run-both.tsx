"use client";

import { CARD_NUMBER_RULE, isCardNumber, normalizeCardNumber } from "@/lib/shared/card-number";
import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { onDemand } from "@/lib/client/on-demand";
import { useSession } from "@/lib/client/use-session-api";
import { useRememberedLocation } from "@/lib/client/use-remembered-location";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RunShortcutHint } from "@/components/ui/kbd";
import { CardNumberField, LocationIdField } from "@/components/exchange/card-fields";
import { ProductionConfirmDialog, useGuardedRun } from "@/components/exchange/production-guard";
import { RUN_SHORTCUT_ATTRIBUTE } from "@/components/shell/run-shortcut";
import { RunResultPanel } from "./run-result-panel";
import { SpecTable } from "./spec-table";
import { useRunBoth } from "./use-run-both";
import { VerdictMark } from "./verdict-mark";
import { Panel } from "@/components/ui/panel";

const DEFAULT_LOCATION = "console";

// The exchange views (headers, code export) show only after a run: fetched when the page is idle, and the
// section appears whole once it is there.
const exchangesModule = onDemand(() => import("./run-both-exchanges"));

export function RunBoth({ onDiff }: { onDiff: (a: string, b: string) => void }) {
  const ids = {
    card: useId(),
    location: useId(),
    table: useId(),
    gift: useId(),
    balance: useId(),
  };
  const { data: session } = useSession();
  const { run, busy, result, giftRecord, balanceRecord, comparison } = useRunBoth();
  const exchanges = exchangesModule.useModule();

  const [card, setCard] = useState("");
  // The last location is a preference kept in localStorage; the server renders the default.
  const [location, setLocation] = useRememberedLocation(DEFAULT_LOCATION);
  const [cardError, setCardError] = useState<string | null>(null);
  const production = session?.environment === "production";
  // Run both includes a Gift Balance Inquiry: in production it records a real transaction.
  const guard = useGuardedRun<string>({
    needsConfirmation: () => production,
    run: (cardNumber) => run({ cardNumber, locationId: location.trim() || DEFAULT_LOCATION }),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const cardNumber = normalizeCardNumber(card);
    if (!isCardNumber(cardNumber)) {
      setCardError(`Enter ${CARD_NUMBER_RULE}.`);
      return;
    }
    setCardError(null);
    guard.start(cardNumber);
  }

  const notConnected = session?.credentials.source === "none";
  const failing = comparison.rows.flatMap((row) =>
    [
      row.gift.verdict === "fail" ? `${row.label} (Gift Balance Inquiry)` : null,
      row.balance.verdict === "fail" ? `${row.label} (Balance Inquiry)` : null,
    ].filter((item): item is string => item !== null),
  );

  return (
    <div className="space-y-6">
      <Panel as="div" flush>
        <form
          onSubmit={submit}
          {...{ [RUN_SHORTCUT_ATTRIBUTE]: "" }}
          className="p-5"
          aria-label="Run both operations"
          noValidate
        >
          <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-start">
            <CardNumberField
              id={ids.card}
              value={card}
              onChange={(event) => setCard(event.target.value)}
              placeholder={CARD_NUMBER_RULE}
              required
              error={cardError}
              hint="Sent to both operations; shown and kept only masked."
            />
            <LocationIdField
              id={ids.location}
              value={location}
              onChange={(event) => setLocation(event.target.value)}
              maxLength={64}
              hint="originator.location_id"
            />
            <div className="sm:pt-6">
              <Button
                type="submit"
                variant={production ? "danger" : "primary"}
                size="lg"
                busy={busy}
                className="w-full sm:w-auto"
              >
                Run both
                <RunShortcutHint className="hidden sm:inline" />
              </Button>
            </div>
          </div>
          {notConnected ? (
            <Alert tone="warning" title="Not connected" className="mt-4">
              <p>
                Both operations need a token.{" "}
                <Link href="/connect" className="font-medium underline">
                  Connect with credentials
                </Link>{" "}
                (the demo credentials are one click away), then run both.
              </p>
            </Alert>
          ) : null}
        </form>
      </Panel>

      <Panel aria-labelledby={ids.table} flush>
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-default px-5 py-3.5">
          <div className="min-w-0">
            <h2 id={ids.table} className="text-sm font-semibold text-fg">
              API specification §4.5, with live values
            </h2>
            <p className="mt-0.5 text-sm text-muted" data-testid="spec-verdict">
              {result && !busy ? (
                <span
                  className={
                    comparison.conforms
                      ? "mr-2 font-medium text-success"
                      : failing.length > 0
                        ? "mr-2 font-medium text-danger"
                        : "mr-2 font-medium text-body"
                  }
                >
                  {comparison.conforms
                    ? "Conforms to the specification."
                    : failing.length > 0
                      ? `${failing.length} difference${failing.length === 1 ? "" : "s"} from the specification.`
                      : "Not every behaviour could be observed."}
                </span>
              ) : null}
              {result ? (
                <>
                  Card <code className="font-mono">{result.card}</code>
                  {giftRecord || balanceRecord ? ` · ${(giftRecord ?? balanceRecord)!.environment}` : null}
                </>
              ) : (
                "What each operation promises; run both to fill in what they return."
              )}
            </p>
          </div>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted" aria-label="Legend">
            {(["pass", "inferred", "fail"] as const).map((verdict) => (
              <li key={verdict} className="inline-flex items-center gap-1.5">
                <VerdictMark verdict={verdict} />
                {verdict === "pass" ? "matches" : verdict === "inferred" ? "inferred" : "differs"}
              </li>
            ))}
          </ul>
        </div>
        <SpecTable comparison={comparison} busy={busy} captionId={ids.table} />
        <div className="border-t border-default px-5 py-3.5" aria-live="polite">
          {busy ? (
            <p className="text-sm text-muted">Running both operations…</p>
          ) : !result ? (
            <p className="text-sm text-muted">
              The Gift Balance Inquiry&rsquo;s <code className="font-mono">balance</code> will be checked
              against the Balance Inquiry&rsquo;s <code className="font-mono">balances.gift</code>.
            </p>
          ) : (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="flex items-center gap-2 text-sm font-medium" data-testid="gift-check">
                <VerdictMark
                  verdict={
                    comparison.giftCheck.verdict === "equal"
                      ? "pass"
                      : comparison.giftCheck.verdict === "different"
                        ? "fail"
                        : "unknown"
                  }
                />
                <span className="text-fg">{comparison.giftCheck.message}</span>
              </p>
              {giftRecord && balanceRecord ? (
                <Button size="sm" onClick={() => onDiff(giftRecord.id, balanceRecord.id)}>
                  Diff these two runs
                </Button>
              ) : null}
            </div>
          )}
        </div>
      </Panel>

      <div className="grid gap-4 lg:grid-cols-2">
        <RunResultPanel
          title="Gift Balance Inquiry"
          titleId={ids.gift}
          outcome={result?.gift ?? null}
          busy={busy}
        />
        <RunResultPanel
          title="Balance Inquiry"
          titleId={ids.balance}
          outcome={result?.balance ?? null}
          busy={busy}
          giftBalance={comparison.giftCheck.gift}
          giftMatches={
            comparison.giftCheck.verdict === "equal"
              ? true
              : comparison.giftCheck.verdict === "different"
                ? false
                : null
          }
        />
      </div>

      {/* Full width: the exchange views carry code export controls that need the room. */}
      {result && !busy && exchanges ? (
        <exchanges.RunBothExchanges result={result} giftRecord={giftRecord} balanceRecord={balanceRecord} />
      ) : null}
      <ProductionConfirmDialog
        guard={guard}
        title="Run a Gift Balance Inquiry in production?"
        confirmLabel="Run both in production"
      >
        <p>
          Run both includes a Gift Balance Inquiry, which records a real transaction: it gets a transaction_id
          and appears in the card&apos;s transaction history (API specification §3, §4.3).
        </p>
        <p>To read balances without recording anything, run only a Balance Inquiry on the inquiry page.</p>
      </ProductionConfirmDialog>
    </div>
  );
}
