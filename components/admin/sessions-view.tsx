"use client";

import { useState } from "react";
import useSWR from "swr";
import useSWRMutation from "swr/mutation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { TableHead } from "@/components/ui/table-head";
import { adminSessionKey, adminUserSessionsKey, apiKeys } from "@/lib/client/api-keys";
import { getJson, requestJson, type ApiClientError } from "@/lib/client/fetcher";
import type { AdminSession, AdminSessionList, AdminSessionsEnded } from "@/lib/shared/admin-contract";

const COLUMNS = [
  { key: "user", label: "User" },
  { key: "roles", label: "Roles" },
  { key: "since", label: "Signed in" },
  { key: "from", label: "From" },
  { key: "seen", label: "Last seen" },
  { key: "actions", label: "Actions", srOnly: true },
];

/** What the admin is about to end: one session, or every session of a user. */
type Ending = { kind: "one"; session: AdminSession } | { kind: "user"; userId: string };

function useEndSessions() {
  return useSWRMutation<AdminSessionsEnded, ApiClientError, string, string>(
    apiKeys.adminSessions,
    (_key: string, { arg }: { arg: string }) => requestJson<AdminSessionsEnded>(arg, { method: "DELETE" }),
  );
}

/** Who is signed in, since when, last seen; end one session or all of a user's (asked first, audited). */
export function SessionsView() {
  const { data, error } = useSWR<AdminSessionList, ApiClientError>(apiKeys.adminSessions, getJson, {
    refreshInterval: 15_000,
  });
  const [ending, setEnding] = useState<Ending | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const end = useEndSessions();

  function confirm() {
    if (!ending) return;
    const url =
      ending.kind === "one" ? adminSessionKey(ending.session.id) : adminUserSessionsKey(ending.userId);
    setEnding(null);
    end
      .trigger(url)
      .then((result) => setNotice(`${result.ended} session${result.ended === 1 ? "" : "s"} ended.`))
      .catch((failure: ApiClientError) => setNotice(failure.message));
  }

  return (
    <>
      <PageHeader
        title="Active sessions"
        description="Who is signed in, since when, from where (the client address the console saw) and when last seen. Ending a session signs that browser out at once; it is kept in the audit log."
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
      <ConfirmDialog
        open={ending !== null}
        title={ending?.kind === "user" ? `End every session of ${ending.userId}?` : "End this session?"}
        confirmLabel="End"
        onCancel={() => setEnding(null)}
        onConfirm={confirm}
      >
        <p>The browser signed in with it is signed out at once; the person can sign in again.</p>
      </ConfirmDialog>
    </>
  );
}

function SessionsTable({ sessions, onEnd }: { sessions: AdminSession[]; onEnd: (ending: Ending) => void }) {
  if (sessions.length === 0) return <p className="p-4 text-sm">Nobody is signed in.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-labelledby="admin-sessions-title">
        <TableHead
          columns={COLUMNS}
          className="bg-slate-50 text-xs text-slate-600 dark:bg-slate-950 dark:text-slate-400"
          cellClassName="px-4 py-2"
        />
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {sessions.map((session) => (
            <tr key={session.id}>
              <td className="px-4 py-2 font-medium">{session.user_id}</td>
              <td className="px-4 py-2">{session.roles.join(", ") || "—"}</td>
              <td className="px-4 py-2 whitespace-nowrap">
                {new Date(session.signed_in_at).toLocaleString()}
              </td>
              <td className="px-4 py-2 font-mono text-xs">{session.signed_in_from ?? "unknown"}</td>
              <td className="px-4 py-2 whitespace-nowrap">
                {new Date(session.last_seen_at).toLocaleString()}
              </td>
              <td className="flex flex-wrap gap-2 px-4 py-2">
                <Button variant="danger" onClick={() => onEnd({ kind: "one", session })}>
                  End session
                </Button>
                <Button onClick={() => onEnd({ kind: "user", userId: session.user_id })}>
                  End all of {session.user_id}&apos;s
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
