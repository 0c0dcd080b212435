"use client";

import Link from "next/link";
import type { SessionInfo } from "@/lib/shared/contracts";
import { formatDuration, tokenClock, useNow } from "@/lib/client/use-now";
import { cx } from "@/components/ui/class-names";
import { Skeleton } from "@/components/ui/skeleton";
import { PAGE_ACCESS } from "@/components/team/page-access";
import { useAllows } from "@/components/team/use-me";

const pill =
  "inline-flex h-8 items-center gap-2 rounded-md px-2.5 text-sm hover:bg-raised focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500";

function credentialSourceLabel(credentials: SessionInfo["credentials"]): string {
  if (credentials.source === "server") return "server-held";
  if (credentials.source === "none") return "not connected";
  return credentials.profile === "demo" ? "demo" : "yours";
}

export function CredentialStatus({ session }: { session: SessionInfo | undefined }) {
  const allows = useAllows();
  if (!session) return <Skeleton className="h-8 w-36" />;
  const { credentials } = session;
  const connected = credentials.source !== "none";
  // Only roles that may connect get a link to Connect (support's credentials are the server's).
  const mayConnect = allows !== null && PAGE_ACCESS.connect.allowed(allows);
  const content = (
    <>
      <span
        aria-hidden="true"
        className={cx(
          "size-2 rounded-full",
          connected ? "bg-emerald-500" : "border border-warning-strong bg-transparent",
        )}
      />
      {connected ? (
        <>
          <span className="sr-only">Credentials:</span>
          <span className="max-w-40 truncate font-mono text-xs text-fg">{credentials.client_id}</span>
          <span className="text-xs text-muted">{credentialSourceLabel(credentials)}</span>
        </>
      ) : (
        <span className="text-warning">Not connected</span>
      )}
    </>
  );
  return mayConnect ? (
    <Link href="/connect" className={pill} title="Credentials">
      {content}
    </Link>
  ) : (
    <span className={pill} title="Credentials">
      {content}
    </span>
  );
}

/** Header countdown to the token's expiry, with a thin bar of the lifetime left. */
export function TokenStatus({ session }: { session: SessionInfo | undefined }) {
  const now = useNow();
  if (!session) return <Skeleton className="h-8 w-32" />;
  const { token } = session;
  if (!token) {
    return (
      <Link href="/token" className={cx(pill, "text-muted")}>
        No token
      </Link>
    );
  }
  const clock = now ? tokenClock(token.issued_at, token.expires_at, now) : null;
  const low = clock !== null && !clock.expired && (clock.fractionLeft < 0.1 || clock.remainingSeconds < 300);
  return (
    <Link
      href="/token"
      className={cx(pill, "flex-col items-stretch justify-center gap-0.5")}
      data-testid="header-token-countdown"
    >
      <span className="flex items-center gap-1.5 text-xs">
        <span className="text-muted">Token</span>
        <span
          className={cx(
            "font-mono tabular-nums",
            clock?.expired ? "text-danger" : low ? "text-warning" : "text-fg",
          )}
        >
          {clock === null ? "–:––:––" : clock.expired ? "expired" : formatDuration(clock.remainingSeconds)}
        </span>
      </span>
      <span aria-hidden="true" className="h-0.5 w-full overflow-hidden rounded-full bg-track">
        <span
          className={cx(
            "block h-full rounded-full",
            clock?.expired ? "bg-red-500" : low ? "bg-amber-500" : "bg-emerald-500",
          )}
          style={{ width: `${Math.round((clock?.fractionLeft ?? 1) * 100)}%` }}
        />
      </span>
    </Link>
  );
}
