"use client";

import Link from "next/link";
import { PAGE_ACCESS } from "@/components/team/page-access";
import { useAllows } from "@/components/team/use-me";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { environmentLabel } from "@/lib/client/environments";
import { useSaveCredentials, useSession } from "@/lib/client/use-session-api";
import type { EnvironmentName, SessionInfo } from "@/lib/shared/contracts";

type Missing = "none" | "demo_elsewhere";

/** Why a run on `environment` would be refused for want of credentials (as the server decides), or null. */
export function missingCredentials(
  session: SessionInfo | undefined,
  environment: EnvironmentName,
): Missing | null {
  if (!session) return null;
  if (session.credentials.source === "none") return "none";
  // The demo client exists only in the embedded sandbox.
  if (session.credentials.profile === "demo" && environment !== "embedded") return "demo_elsewhere";
  return null;
}

/** Says before the click that a run would have no credentials, and on the embedded sandbox offers the demo client. */
export function RunCredentials({ environment }: { environment: EnvironmentName }) {
  const { data: session } = useSession();
  const save = useSaveCredentials();
  const allows = useAllows();
  const missing = missingCredentials(session, environment);
  if (!missing) return null;
  const label = environmentLabel(environment);
  const mayConnect = Boolean(allows && PAGE_ACCESS.connect.allowed(allows));
  return (
    <Alert tone="warning" title={`No credentials for ${label}`} role="status">
      <p>
        {missing === "none"
          ? "This session has no client credentials and the server holds none, so a run would be refused."
          : `The demo credentials work only on the embedded sandbox; a run on ${label} needs that environment's client credentials.`}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        {environment === "embedded" ? (
          <Button
            size="sm"
            variant="primary"
            busy={save.isMutating}
            onClick={() => void save.trigger({ profile: "demo" }).catch(() => undefined)}
          >
            Use demo credentials
          </Button>
        ) : null}
        {mayConnect ? (
          <Link href="/connect" className="text-sm font-medium underline">
            Connect credentials
          </Link>
        ) : (
          <span className="text-sm">Ask an administrator to configure server credentials.</span>
        )}
      </div>
      {save.error ? <p className="mt-1 text-sm">{save.error.message}</p> : null}
    </Alert>
  );
}
