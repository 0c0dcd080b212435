"use client";

import { useId, useState, type FormEvent } from "react";
import useSWR, { useSWRConfig } from "swr";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { SelectField } from "@/components/ui/select-field";
import { adminSuspensionKey, apiKeys } from "@/lib/client/api-keys";
import { getJson, requestJson, type ApiClientError } from "@/lib/client/fetcher";
import type { AdminSuspended, AdminSuspensionList } from "@/lib/shared/admin-contract";
import { errorDetails } from "@/lib/shared/error-details";

/** The durations offered, in minutes (the server takes 1 to 43,200). */
const SUSPEND_FOR = [
  { minutes: 15, label: "15 minutes" },
  { minutes: 60, label: "1 hour" },
  { minutes: 8 * 60, label: "8 hours" },
  { minutes: 24 * 60, label: "1 day" },
  { minutes: 7 * 24 * 60, label: "7 days" },
  { minutes: 30 * 24 * 60, label: "30 days" },
] as const;

export function useSuspensions() {
  return useSWR<AdminSuspensionList, ApiClientError>(apiKeys.adminSuspensions, getJson, {
    refreshInterval: 15_000,
  });
}

/** What a suspension came to: a line for the page, or the console's question about a user id it never saw. */
export type SuspendOutcome =
  | { kind: "done"; message: string }
  | { kind: "unknown_user"; userId: string; similar: string[]; message: string };

/** "Suspended until (local time); N sessions ended; what it stopped", for the page's notice. */
function suspendedLine(userId: string, done: AdminSuspended): string {
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
  const stopped = [
    done.batches_stopped > 0 ? `${plural(done.batches_stopped, "support batch")} stopped` : null,
    done.runs_cancelled > 0 ? `${plural(done.runs_cancelled, "certification run")} cancelled` : null,
  ].filter(Boolean);
  return (
    `${userId} is suspended until ${new Date(done.suspension.until).toLocaleString()}; ` +
    `${plural(done.sessions_ended, "session")} ended${stopped.length > 0 ? `; ${stopped.join(", ")}` : ""}.` +
    (done.user_seen ? "" : " The console had never seen this user id.")
  );
}

/**
 * Suspends `userId` (with `anyway`, even a user id the console never saw); the sessions and suspensions lists are
 * read again after.
 */
export function useSuspend() {
  const { mutate } = useSWRConfig();
  return async (userId: string, minutes: number, reason: string, anyway = false): Promise<SuspendOutcome> => {
    const body = {
      user_id: userId,
      minutes,
      ...(reason.trim() ? { reason: reason.trim() } : {}),
      ...(anyway ? { unknown_user: true } : {}),
    };
    try {
      const done = await requestJson<AdminSuspended>(apiKeys.adminSuspensions, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return { kind: "done", message: suspendedLine(userId, done) };
    } catch (failure) {
      const error = failure as ApiClientError;
      const unknown = errorDetails(error, "unknown_user");
      if (unknown) return { kind: "unknown_user", userId, similar: unknown.similar, message: error.message };
      return { kind: "done", message: error.message };
    } finally {
      await Promise.all([mutate(apiKeys.adminSuspensions), mutate(apiKeys.adminSessions)]);
    }
  };
}

/** The suspensions in force, each with Lift, and a form to suspend anyone by user id. */
export function SuspensionsPanel({ onNotice }: { onNotice: (notice: string) => void }) {
  const { data, error, mutate } = useSuspensions();
  async function lift(userId: string) {
    try {
      await requestJson(adminSuspensionKey(userId), { method: "DELETE" });
      onNotice(`${userId}'s suspension is lifted.`);
    } catch (failure) {
      onNotice((failure as ApiClientError).message);
    }
    await mutate();
  }
  return (
    <Panel title="Suspended" titleId="admin-suspensions-title" className="mt-6">
      {error ? (
        <Alert tone="danger" role="alert" title="The suspensions cannot be listed">
          {error.message}
        </Alert>
      ) : data && data.suspensions.length > 0 ? (
        <ul className="mb-4 divide-y divide-default text-sm" aria-labelledby="admin-suspensions-title">
          {data.suspensions.map((row) => (
            <li key={row.user_id} className="flex flex-wrap items-center gap-3 py-2">
              <span className="font-medium">{row.user_id}</span>
              <span>until {new Date(row.until).toLocaleString()}</span>
              {row.reason ? <span className="text-muted">{row.reason}</span> : null}
              <Button size="sm" onClick={() => void lift(row.user_id)}>
                Lift {row.user_id}&apos;s suspension
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-4 text-sm">Nobody is suspended.</p>
      )}
      <SuspendForm onNotice={onNotice} />
    </Panel>
  );
}

/**
 * Suspend by user id: for someone with no session now (a proxy user signs in again on any request). A user id the
 * console never saw (ids match exactly: `Eve` is not `eve`) is asked about first.
 */
function SuspendForm({ onNotice }: { onNotice: (notice: string) => void }) {
  const id = useId();
  const [userId, setUserId] = useState("");
  const [unknown, setUnknown] = useState<Extract<SuspendOutcome, { kind: "unknown_user" }> | null>(null);
  const terms = useSuspendTerms();
  const suspend = useSuspend();
  async function run(anyway: boolean) {
    const outcome = await suspend(userId.trim(), Number(terms.minutes), terms.reason, anyway);
    if (outcome.kind === "unknown_user") return setUnknown(outcome);
    onNotice(outcome.message);
    setUserId("");
    terms.setReason("");
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (userId.trim()) void run(false);
  }
  return (
    <form onSubmit={submit} aria-label="Suspend a user" className="grid gap-3 sm:grid-cols-4">
      <Field
        id={`${id}-user`}
        label="User id"
        value={userId}
        onChange={(change) => setUserId(change.target.value)}
        autoComplete="off"
      />
      <SuspendTermsFields id={id} terms={terms} />
      <div className="flex items-end">
        <Button type="submit" variant="danger" disabled={!userId.trim()}>
          Suspend
        </Button>
      </div>
      <ConfirmDialog
        open={unknown !== null}
        title={`Suspend ${unknown?.userId ?? ""}, a user the console has never seen?`}
        confirmLabel="Suspend anyway"
        onCancel={() => setUnknown(null)}
        onConfirm={() => {
          setUnknown(null);
          void run(true);
        }}
      >
        <p>
          Nobody with the user id <strong className="break-all">{unknown?.userId}</strong> has signed in to
          this console. User ids match exactly, as your identity provider sends them.
        </p>
        {unknown && unknown.similar.length > 0 ? (
          <p className="mt-2">
            It has seen{" "}
            {unknown.similar.map((similar, index) => (
              <span key={similar}>
                {index > 0 ? ", " : ""}
                <strong className="break-all">{similar}</strong>
              </span>
            ))}
            : is that who you mean?
          </p>
        ) : null}
      </ConfirmDialog>
    </form>
  );
}

/** The duration and reason a suspension asks for, kept by the form that shows them. */
export function useSuspendTerms() {
  const [minutes, setMinutes] = useState(String(SUSPEND_FOR[1].minutes));
  const [reason, setReason] = useState("");
  return { minutes, setMinutes, reason, setReason };
}

type SuspendTerms = ReturnType<typeof useSuspendTerms>;

export function SuspendTermsFields({ id, terms }: { id: string; terms: SuspendTerms }) {
  return (
    <>
      <SelectField id={`${id}-minutes`} label="For" value={terms.minutes} onChange={terms.setMinutes}>
        {SUSPEND_FOR.map((choice) => (
          <option key={choice.minutes} value={choice.minutes}>
            {choice.label}
          </option>
        ))}
      </SelectField>
      <Field
        id={`${id}-reason`}
        label="Reason or ticket"
        value={terms.reason}
        onChange={(change) => terms.setReason(change.target.value)}
        maxLength={500}
      />
    </>
  );
}
