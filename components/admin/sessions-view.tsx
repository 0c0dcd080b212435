"use client";

import { useId, useState, type ReactNode } from "react";
import useSWR from "swr";
import useSWRMutation from "swr/mutation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { TableHead } from "@/components/ui/table-head";
import { adminSessionKey, adminUserSessionsKey, apiKeys } from "@/lib/client/api-keys";
import { getJson, requestJson, type ApiClientError } from "@/lib/client/fetcher";
import type {
  AdminSession,
  AdminSessionList,
  AdminSessionsEnded,
  AdminUserSessionsEnded,
} from "@/lib/shared/admin-contract";
import type { AuthMode } from "@/lib/server/identity/me";
import {
  SuspendTermsFields,
  SuspensionsPanel,
  useSuspend,
  useSuspendTerms,
  useSuspensions,
} from "./suspensions-panel";

const COLUMNS = [
  { key: "user", label: "User" },
  { key: "roles", label: "Roles" },
  { key: "since", label: "Signed in" },
  { key: "from", label: "From" },
  { key: "seen", label: "Last seen" },
  { key: "actions", label: "Actions", srOnly: true },
];

/** What the admin is about to do: end one session, or every session of a user, or suspend a user. */
type Ending =
  | { kind: "one"; session: AdminSession }
  | { kind: "user"; userId: string }
  | { kind: "suspend"; userId: string };

/** What ending a session does, by how the console signs people in. */
const WHAT_ENDING_DOES: Record<AuthMode, string> = {
  proxy:
    "End session signs them out of this console once; the proxy signs them back in on their next request. To keep them out, suspend.",
  oidc: "End session signs that browser out at once; they can sign in again through the provider. To keep them out, suspend.",
  none: "End session signs that browser out at once.",
};

type Ended = AdminSessionsEnded | AdminUserSessionsEnded;

function useEndSessions() {
  return useSWRMutation<Ended, ApiClientError, string, string>(
    apiKeys.adminSessions,
    (_key: string, { arg }: { arg: string }) => requestJson<Ended>(arg, { method: "DELETE" }),
  );
}

/** "2 sessions ended; 1 support batch stopped." */
function endedLine(result: Ended): string {
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
  const parts = [`${plural(result.ended, "session")} ended`];
  if ("batches_stopped" in result && result.batches_stopped > 0)
    parts.push(`${plural(result.batches_stopped, "support batch")} stopped`);
  if ("runs_cancelled" in result && result.runs_cancelled > 0)
    parts.push(`${plural(result.runs_cancelled, "certification run")} cancelled`);
  return `${parts.join("; ")}.`;
}

/**
 * Who is signed in, since when, last seen; end one session or all of a user's, or suspend a user (asked first,
 * audited). The page says what ending does in this console's auth mode.
 */
export function SessionsView() {
  const { data, error } = useSWR<AdminSessionList, ApiClientError>(apiKeys.adminSessions, getJson, {
    refreshInterval: 15_000,
  });
  const mode = useSuspensions().data?.auth_mode ?? "none";
  const [ending, setEnding] = useState<Ending | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const end = useEndSessions();

  function endSessions(target: Exclude<Ending, { kind: "suspend" }>) {
    const url =
      target.kind === "one" ? adminSessionKey(target.session.id) : adminUserSessionsKey(target.userId);
    end
      .trigger(url)
      .then((result) => setNotice(endedLine(result)))
      .catch((failure: ApiClientError) => setNotice(failure.message));
  }

  return (
    <>
      <PageHeader
        title="Active sessions"
        description={`Who is signed in, since when, from where (the client address the console saw) and when last seen; every action is kept in the audit log. ${WHAT_ENDING_DOES[mode]}`}
      />
      {notice ? (
        <div className="mb-4" role="status">
          <Alert tone="info" title={notice} />
        </div>
      ) : null}
      <Panel title="Signed in now" titleId="admin-sessions-title" bodyClassName="px-0 py-0">
        {error ? (
          <div className="p-4">
            <Alert tone="danger" role="alert" title="The sessions cannot be listed">
              {error.message}
            </Alert>
          </div>
        ) : !data ? (
          <Skeleton className="m-4 h-16" />
        ) : (
          <SessionsTable sessions={data.sessions} onEnd={setEnding} />
        )}
      </Panel>
      <SuspensionsPanel onNotice={setNotice} />
      <ActionDialog
        ending={ending}
        mode={mode}
        onCancel={() => setEnding(null)}
        onEnd={(target) => {
          setEnding(null);
          endSessions(target);
        }}
        onSuspended={(message) => {
          setEnding(null);
          setNotice(message);
        }}
      />
    </>
  );
}

/** The confirmation of an end, or the suspension's duration and reason. */
function ActionDialog({
  ending,
  mode,
  onCancel,
  onEnd,
  onSuspended,
}: {
  ending: Ending | null;
  mode: AuthMode;
  onCancel: () => void;
  onEnd: (target: Exclude<Ending, { kind: "suspend" }>) => void;
  onSuspended: (message: string) => void;
}) {
  const id = useId();
  const terms = useSuspendTerms();
  const suspend = useSuspend();
  const title =
    ending?.kind === "suspend"
      ? `Suspend ${ending.userId}?`
      : ending?.kind === "user"
        ? `End every session of ${ending.userId}?`
        : "End this session?";
  return (
    <ConfirmDialog
      open={ending !== null}
      title={title}
      confirmLabel={ending?.kind === "suspend" ? "Suspend" : "End"}
      onCancel={onCancel}
      onConfirm={() => {
        if (!ending) return;
        if (ending.kind !== "suspend") return onEnd(ending);
        // Someone in the list has signed in: the console has seen them.
        void suspend(ending.userId, Number(terms.minutes), terms.reason).then((outcome) =>
          onSuspended(outcome.message),
        );
        terms.setReason("");
      }}
    >
      {ending?.kind === "suspend" ? (
        <div className="grid gap-3">
          <p>They are refused on every instance until it ends or you lift it; their sessions end now.</p>
          <SuspendTermsFields id={id} terms={terms} />
        </div>
      ) : (
        <p>{WHAT_ENDING_DOES[mode]}</p>
      )}
    </ConfirmDialog>
  );
}

/** A cell that is a table cell on wide screens and a labelled line of a card on narrow ones. */
function Cell({ label, className, children }: { label?: string; className?: string; children: ReactNode }) {
  return (
    <td className={cx("px-4 py-2 max-lg:block max-lg:py-0.5", className)}>
      {label ? <span className="font-sans text-xs text-muted lg:hidden">{label}: </span> : null}
      {children}
    </td>
  );
}

// Below lg the rows are cards (a cell a line, the actions wrapping): the three buttons never push the page wider.
function SessionsTable({ sessions, onEnd }: { sessions: AdminSession[]; onEnd: (ending: Ending) => void }) {
  if (sessions.length === 0) return <p className="p-4 text-sm">Nobody is signed in.</p>;
  return (
    <table className="w-full text-left text-sm max-lg:block" aria-labelledby="admin-sessions-title">
      <TableHead
        columns={COLUMNS}
        className="bg-inset text-xs text-muted max-lg:sr-only"
        cellClassName="px-4 py-2"
      />
      <tbody className="divide-y divide-default max-lg:block">
        {sessions.map((session) => (
          <tr key={session.id} className="max-lg:block max-lg:py-2">
            <Cell className="font-medium break-all">{session.user_id}</Cell>
            <Cell label="Roles">{session.roles.join(", ") || "—"}</Cell>
            <Cell label="Signed in" className="lg:whitespace-nowrap">
              {new Date(session.signed_in_at).toLocaleString()}
            </Cell>
            <Cell label="From" className="font-mono text-xs break-all">
              {session.signed_in_from ?? "unknown"}
            </Cell>
            <Cell label="Last seen" className="lg:whitespace-nowrap">
              {new Date(session.last_seen_at).toLocaleString()}
            </Cell>
            <Cell className="max-lg:pt-2">
              <div className="flex flex-wrap gap-2">
                <Button variant="danger" onClick={() => onEnd({ kind: "one", session })}>
                  End session
                </Button>
                <Button
                  className="max-w-full"
                  onClick={() => onEnd({ kind: "user", userId: session.user_id })}
                >
                  <span className="truncate">End all of {session.user_id}&apos;s</span>
                </Button>
                <Button
                  className="max-w-full"
                  onClick={() => onEnd({ kind: "suspend", userId: session.user_id })}
                >
                  <span className="truncate">Suspend {session.user_id}</span>
                </Button>
              </div>
            </Cell>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
