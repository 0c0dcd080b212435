"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import type { SessionInfo } from "@/lib/shared/contracts";
import { environmentLabel } from "@/lib/client/environments";
import { useForgetSession, useSaveCredentials, useSession } from "@/lib/client/use-session-api";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { RunShortcutHint } from "@/components/ui/kbd";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiErrorAlert, CONSOLE_UNANSWERED_TITLE } from "@/components/exchange/api-error-alert";

const PRINTABLE = /^[\x20-\x7E]+$/;

function sourceDescription(credentials: SessionInfo["credentials"]): string {
  if (credentials.source === "server") {
    return "Server-held credentials (CARD_API_CLIENT_ID and CARD_API_CLIENT_SECRET in the server's configuration).";
  }
  if (credentials.profile === "demo") return "The embedded sandbox's demo client, with every scope.";
  return "Entered by you and kept in this browser's encrypted, HttpOnly session cookie.";
}

function CurrentCredentials({ session }: { session: SessionInfo | undefined }) {
  const forget = useForgetSession();
  const [forgotten, setForgotten] = useState(false);

  if (!session) {
    return (
      <Panel title="Current credentials" titleId="current-credentials">
        <div className="space-y-3" aria-busy="true">
          <Skeleton className="h-5 w-64" />
          <Skeleton className="h-5 w-48" />
          <Skeleton className="h-9 w-40" />
        </div>
      </Panel>
    );
  }

  const { credentials } = session;
  const connected = credentials.source !== "none";
  const canForget = credentials.source === "session" || session.token !== null;
  return (
    <Panel
      title="Current credentials"
      titleId="current-credentials"
      actions={
        canForget ? (
          <Button
            size="sm"
            busy={forget.isMutating}
            onClick={() =>
              void forget
                .trigger({})
                .then(() => setForgotten(true))
                .catch(() => {})
            }
          >
            Forget session
          </Button>
        ) : null
      }
    >
      <div className="min-h-24">
        {connected ? (
          <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">Client ID</dt>
            <dd className="font-mono text-fg" data-testid="current-client-id">
              {credentials.client_id}
            </dd>
            <dt className="text-muted">Client secret</dt>
            <dd>
              <Badge tone="success">
                <svg viewBox="0 0 20 20" fill="currentColor" className="size-3.5" aria-hidden="true">
                  <path
                    fillRule="evenodd"
                    d="M10 1a4.5 4.5 0 0 0-4.5 4.5V9H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm3 8V5.5a3 3 0 1 0-6 0V9h6Z"
                    clipRule="evenodd"
                  />
                </svg>
                Secret set
              </Badge>
              <span className="ml-2 text-xs text-muted">kept on the server, never shown again</span>
            </dd>
            <dt className="text-muted">Source</dt>
            <dd className="text-fg">{sourceDescription(credentials)}</dd>
            <dt className="text-muted">Environment</dt>
            <dd className="text-fg">{environmentLabel(session.environment)}</dd>
          </dl>
        ) : (
          <div className="text-sm text-body">
            <p className="font-medium text-fg">No credentials yet.</p>
            <p className="mt-1">
              Use the demo credentials of the embedded sandbox, or enter the client_id and client_secret your
              integration representative issued at onboarding (API specification §2.1).
            </p>
          </div>
        )}
        {forgotten && !forget.isMutating ? (
          <p role="status" className="mt-3 text-sm text-body">
            Session forgotten: credentials and token were removed from the session
            {credentials.source === "server" ? "; the server-held credentials apply again." : "."}
          </p>
        ) : null}
        {forget.error ? (
          <div className="mt-3">
            <ApiErrorAlert error={forget.error} fallbackTitle="Could not forget the session" />
          </div>
        ) : null}
      </div>
      {connected ? (
        <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-default pt-4">
          <Link href="/token" className={buttonClasses("primary", "md")}>
            Next: request a token
            <span aria-hidden="true">→</span>
          </Link>
          <p className="text-xs text-muted">
            {credentials.source === "server"
              ? "Entering credentials below overrides the server-held ones for this session."
              : "Forget the session to return to the server-held credentials, when the server has them."}
          </p>
        </div>
      ) : null}
    </Panel>
  );
}

function DemoCredentials({ session, primary }: { session: SessionInfo; primary: boolean }) {
  const save = useSaveCredentials();
  const [saved, setSaved] = useState(false);
  const embeddedActive = session.environment === "embedded";
  const embeddedAvailable = session.environments.some((environment) => environment.name === "embedded");
  if (!embeddedAvailable) return null;

  return (
    <Panel
      title="Demo credentials"
      titleId="demo-credentials"
      description="The embedded sandbox's demo client: every scope, two-hour tokens. No secret to type."
    >
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant={primary ? "primary" : "secondary"}
          busy={save.isMutating}
          onClick={() =>
            void save
              .trigger({ profile: "demo" })
              .then(() => setSaved(true))
              .catch(() => {})
          }
        >
          Use demo credentials
        </Button>
        {!embeddedActive ? (
          <p className="text-sm text-muted">
            They exist only in the embedded sandbox: using them switches the environment to it.
          </p>
        ) : saved && !save.isMutating && !save.error ? (
          <p role="status" className="text-sm text-success">
            Demo credentials saved.
          </p>
        ) : null}
        {save.error ? (
          <ApiErrorAlert error={save.error} fallbackTitle="The demo credentials were not saved" />
        ) : null}
      </div>
      {embeddedActive ? (
        <p className="mt-3 text-xs text-muted">
          Other demo clients (<code className="font-mono">demo-short-lived</code>,{" "}
          <code className="font-mono">demo-reports-only</code>) can be entered below with the sandbox&apos;s
          demo secret; see the{" "}
          <Link href="/sandbox" className="text-accent underline">
            sandbox documentation
          </Link>
          .
        </p>
      ) : null}
    </Panel>
  );
}

function CustomCredentials({ primary }: { primary: boolean }) {
  const save = useSaveCredentials();
  const [clientId, setClientId] = useState("");
  const [secret, setSecret] = useState("");
  const [errors, setErrors] = useState<{ clientId?: string; secret?: string }>({});
  const [savedFor, setSavedFor] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const id = clientId.trim();
    const next: typeof errors = {};
    if (!id) next.clientId = "Enter the client ID.";
    else if (!PRINTABLE.test(id) || id.length > 200)
      next.clientId = "Printable characters only, at most 200.";
    if (!secret) next.secret = "Enter the client secret.";
    else if (!PRINTABLE.test(secret) || secret.length > 500)
      next.secret = "Printable characters only, at most 500.";
    setErrors(next);
    if (next.clientId || next.secret) return;
    try {
      await save.trigger({ client_id: id, client_secret: secret });
      // Write-only: the secret leaves the page's memory as soon as the server has it.
      setSecret("");
      setSavedFor(id);
    } catch {
      // shown from save.error
    }
  }

  return (
    <Panel
      title="Your credentials"
      titleId="custom-credentials"
      description="Sent once to the console server and kept in the encrypted session; the secret cannot be read back."
    >
      <form data-run-shortcut onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
        <Field
          id="client-id"
          label="Client ID"
          hint={<>The public client_id issued at onboarding.</>}
          value={clientId}
          onChange={(event) => setClientId(event.target.value)}
          error={errors.clientId}
          autoComplete="off"
          spellCheck={false}
          mono
        />
        <Field
          id="client-secret"
          label="Client secret"
          type="password"
          hint="Write-only: after saving, the console shows that a secret is set, never its value."
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          error={errors.secret}
          autoComplete="new-password"
          spellCheck={false}
          mono
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant={primary ? "primary" : "secondary"} busy={save.isMutating}>
            Save credentials
            <RunShortcutHint />
          </Button>
          {savedFor && !save.isMutating && !save.error ? (
            <p role="status" className="text-sm text-success">
              Saved for <span className="font-mono">{savedFor}</span>: secret set.
            </p>
          ) : null}
        </div>
        {save.error ? <ApiErrorAlert error={save.error} fallbackTitle="Not saved" /> : null}
      </form>
    </Panel>
  );
}

export function ConnectView() {
  const { data: session, error } = useSession();
  const connected = session ? session.credentials.source !== "none" : false;
  const demoPrimary = Boolean(session && !connected && session.environment === "embedded");

  return (
    <>
      <PageHeader
        title="Connect"
        description="Choose the client credentials the console uses to request tokens. Secrets and tokens stay on the server: the browser only ever sees that they are set."
      />
      {error && !session ? (
        <div className="mb-6">
          <ApiErrorAlert error={error} fallbackTitle={CONSOLE_UNANSWERED_TITLE} />
        </div>
      ) : null}
      <div className="space-y-6">
        <CurrentCredentials session={session} />
        <div className="grid items-start gap-6 md:grid-cols-2">
          {session ? (
            <DemoCredentials session={session} primary={demoPrimary} />
          ) : (
            <Panel title="Demo credentials">
              <Skeleton className="h-9 w-44" />
            </Panel>
          )}
          <CustomCredentials primary={Boolean(session && !connected && !demoPrimary)} />
        </div>
      </div>
    </>
  );
}
