"use client";

import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Panel } from "@/components/ui/panel";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { CASE_GROUPS, caseGroup } from "@/lib/client/certification-compare";
import { MAX_EXPIRY_WAIT_SECONDS, type CaseInfo } from "@/lib/shared/certification-contract";
import { useStartRun } from "@/lib/client/use-certification-api";
import { environmentLabel } from "@/lib/client/environments";
import { useCaseSelection } from "./use-case-selection";
import { useRunEnvironment } from "./use-run-environment";
import { missingCredentials, RunCredentials } from "./run-credentials";
import { useSession } from "@/lib/client/use-session-api";

/** The case that waits for a short-lived token to expire, off unless asked for. */
const EXPIRY_CASE = "AUTH-03";

/** How long the wait adds: the embedded sandbox's short-lived client lives 60 s; elsewhere the profile's. */
function expiryWaitCost(environment: EnvironmentName): string {
  return environment === "embedded"
    ? "adds about 60 s"
    : `adds the short-lived client's token lifetime, at most ${MAX_EXPIRY_WAIT_SECONDS / 60} min`;
}

const PRODUCTION_GIFT_WARNING = "Gift Balance Inquiry cases record real transactions";

export function StartRunForm({
  catalogue,
  onStarted,
}: {
  catalogue: CaseInfo[];
  onStarted: (id: string) => void;
}) {
  const { trigger, isMutating, error, reset } = useStartRun();
  const { offered, refused, environment, setEnvironment } = useRunEnvironment();
  const { selected, toggle } = useCaseSelection(catalogue);
  const [allowGift, setAllowGift] = useState(false);
  const [waitForExpiry, setWaitForExpiry] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const baseId = useId();
  const production = environment === "production";
  const unavailable = refused.find((item) => item.name === environment);
  const noCredentials = missingCredentials(useSession().data, environment) !== null;
  const giftSelected = [...selected].some((id) => caseGroup(id) === "GBI");

  async function start() {
    setConfirming(false);
    const cases = catalogue.map((item) => item.id).filter((id) => selected.has(id));
    const answer = await trigger({
      environment,
      cases: cases.length === catalogue.length ? undefined : cases,
      allow_production_gift: production ? allowGift : false,
      wait_for_token_expiry: waitForExpiry && selected.has(EXPIRY_CASE),
    }).catch(() => null);
    if (answer) onStarted(answer.id);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    reset();
    if (production) setConfirming(true);
    else void start();
  }

  return (
    <Panel
      className="min-w-0"
      title="New run"
      titleId={`${baseId}-title`}
      description="The server runs the selected cases against one environment with this session's credentials (or the server's), keeps every exchange and signs the evidence."
    >
      <form onSubmit={submit} className="grid gap-5">
        <div className="flex flex-wrap items-end gap-4">
          <label className="grid gap-1 text-sm font-medium text-fg">
            Environment
            <select
              value={environment}
              onChange={(event) => {
                setEnvironment(event.target.value as EnvironmentName);
                setAllowGift(false);
              }}
              className="h-9 rounded-md border border-field bg-field px-3 text-sm shadow-sm"
            >
              {(offered ?? [{ name: "embedded" as const, certifiable: true }]).map((item) => (
                <option key={item.name} value={item.name} disabled={!item.certifiable}>
                  {environmentLabel(item.name)}
                  {item.certifiable ? "" : " (not available)"}
                </option>
              ))}
            </select>
          </label>
          <p className="pb-2 text-sm text-muted">
            {selected.size} of {catalogue.length} cases selected
          </p>
        </div>

        {refused.length > 0 ? (
          <ul className="grid gap-1 text-sm text-body" data-testid="not-certifiable">
            {refused.map((item) => (
              <li key={item.name}>
                <span className="font-medium">{environmentLabel(item.name)} cannot be certified here:</span>{" "}
                {item.reason}
              </li>
            ))}
          </ul>
        ) : null}

        <div className="grid gap-4 md:grid-cols-2">
          {CASE_GROUPS.map((group) => {
            const cases = catalogue.filter((item) => caseGroup(item.id) === group.prefix);
            if (cases.length === 0) return null;
            const ids = cases.map((item) => item.id);
            const all = ids.every((id) => selected.has(id));
            return (
              <fieldset
                key={group.prefix}
                className="min-w-0 rounded-lg border border-default px-4 pt-2 pb-3"
              >
                <legend className="px-1 text-sm font-semibold text-fg">
                  {group.title} <span className="font-mono text-xs text-subtle">{group.prefix}</span>
                </legend>
                <div className="mb-2 flex items-center justify-between gap-2">
                  <p className="text-xs text-muted">{group.description}</p>
                  <button
                    type="button"
                    onClick={() => toggle(ids, !all)}
                    className="text-xs font-medium whitespace-nowrap text-accent hover:underline"
                  >
                    {all ? "Select none" : "Select all"}
                    <span className="sr-only"> in {group.title}</span>
                  </button>
                </div>
                <ul className="grid gap-1.5">
                  {cases.map((item) => (
                    <li key={item.id}>
                      <label className="flex items-start gap-2 text-sm">
                        <input
                          type="checkbox"
                          checked={selected.has(item.id)}
                          onChange={(event) => toggle([item.id], event.target.checked)}
                          className="mt-0.5 size-4 shrink-0 accent-indigo-600"
                        />
                        <span>
                          <span className="font-mono text-xs font-semibold">{item.id}</span>{" "}
                          <span className="text-fg">{item.title}</span>{" "}
                          <span className="text-xs whitespace-nowrap text-subtle">
                            §{item.spec_sections.join(", §")}
                          </span>
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            );
          })}
        </div>

        <label className="flex items-start gap-2 text-sm text-fg">
          <input
            type="checkbox"
            checked={waitForExpiry && selected.has(EXPIRY_CASE)}
            disabled={!selected.has(EXPIRY_CASE)}
            onChange={(event) => setWaitForExpiry(event.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-indigo-600"
          />
          <span>
            Wait for a token to expire ({EXPIRY_CASE}): {expiryWaitCost(environment)}. Off, {EXPIRY_CASE} is
            not applicable.
          </span>
        </label>

        {production ? (
          <Alert tone="danger" title={`Production: ${PRODUCTION_GIFT_WARNING}`}>
            <p>
              Each Gift Balance Inquiry case records a real transaction on the card in production. Without the
              opt-in below they are not applicable and nothing is sent for them.
            </p>
            <label className="mt-2 flex items-start gap-2 font-medium">
              <input
                type="checkbox"
                checked={allowGift}
                onChange={(event) => setAllowGift(event.target.checked)}
                className="mt-0.5 size-4 shrink-0 accent-red-700"
              />
              Run Gift Balance Inquiry cases in production (records real transactions)
            </label>
          </Alert>
        ) : null}

        {unavailable ? null : <RunCredentials environment={environment} />}

        {error ? (
          <Alert tone="danger" title="The run did not start" role="alert">
            <p>{error.message}</p>
            {error.code === "no_credentials" ? (
              <p className="mt-1">
                <Link href="/connect" className="font-medium underline">
                  Connect credentials
                </Link>{" "}
                first.
              </p>
            ) : null}
          </Alert>
        ) : null}

        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="submit"
            variant={production ? "danger" : "primary"}
            busy={isMutating}
            disabled={selected.size === 0 || unavailable !== undefined || noCredentials}
          >
            Start run on {environmentLabel(environment)}
          </Button>
          {production && giftSelected && !allowGift ? (
            <span className={cx("text-sm text-muted")}>
              Gift Balance Inquiry cases will be not applicable.
            </span>
          ) : null}
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title="Start a certification run in production?"
        confirmLabel="Start production run"
        onConfirm={() => void start()}
        onCancel={() => setConfirming(false)}
      >
        {allowGift && giftSelected
          ? `${PRODUCTION_GIFT_WARNING}: the selected Gift Balance Inquiry cases will each record real transactions.`
          : "Only read-only calls and token requests are sent: Gift Balance Inquiry cases are not applicable."}
      </ConfirmDialog>
    </Panel>
  );
}
