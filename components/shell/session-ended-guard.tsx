"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { GateText } from "@/components/team/gate-frame";
import { SignInLink } from "@/components/team/sign-in-link";
import { SuspensionNotice } from "@/components/team/suspension-notice";
import { useMe } from "@/components/team/use-me";
import { Button } from "@/components/ui/button";
import { closeHistoryStores } from "@/lib/client/history-store";
import { clearUserState } from "@/lib/client/user-scope";
import {
  ENDED_BY_ADMIN,
  lastApiCallAt,
  reportSessionEnded,
  useSessionEnded,
  useSuspendedUntil,
  type SessionEnd,
} from "@/lib/client/session-ended";
import { Panel } from "@/components/ui/panel";

const WHY: Record<SessionEnd, string> = {
  idle: "It ended after a period without activity (the idle timeout), so what it showed is hidden.",
  expired: "It reached its maximum length, so what it showed is hidden.",
  signed_out: "It was signed out, perhaps in another tab, so what it showed is hidden.",
  revoked:
    "An administrator ended it, so what it showed is hidden, and what this browser kept for you (history, remembered fields) was removed.",
  suspended:
    "An administrator suspended your access to this console, so what it showed is hidden, and what this browser kept for you was removed.",
  ended: "It is no longer valid, so what it showed is hidden.",
};

/** Declares the session over once no call was made for the idle timeout (the server has ended it by then). */
function useIdleClock(idleSeconds: number | null) {
  useEffect(() => {
    if (idleSeconds === null) return;
    const timer = setInterval(() => {
      if (Date.now() - lastApiCallAt() >= idleSeconds * 1000) reportSessionEnded("idle");
    }, 1000);
    return () => clearInterval(timer);
  }, [idleSeconds]);
}

/**
 * The console's page and header while the session lives; once it is over, a notice that says why and offers Sign
 * in again in their place. The page stays mounted (hidden), so what was typed is still there if it comes back.
 */
export function SessionEndedGuard({
  idleSeconds,
  children,
}: {
  idleSeconds: number | null;
  children: ReactNode;
}) {
  const ended = useSessionEnded();
  const suspendedUntil = useSuspendedUntil();
  const heading = useRef<HTMLDivElement>(null);
  const behindProxy = useMe().data?.user?.signed_in_with === "proxy";
  useIdleClock(idleSeconds);
  useEffect(() => {
    if (ended) heading.current?.focus();
    if (ended && ENDED_BY_ADMIN.includes(ended)) void clearUserState(closeHistoryStores);
  }, [ended]);
  return (
    <>
      <div hidden={ended !== null}>{children}</div>
      {ended ? (
        // Not GateFrame: the hidden page keeps its own <main id="main">; this one is the only one shown.
        <main className="flex min-h-screen items-start justify-center px-4 py-12">
          <Panel aria-labelledby="session-ended-title" className="w-full max-w-md" bodyClassName="p-6 sm:p-8">
            <div ref={heading} tabIndex={-1} role="alert" className="outline-none">
              <h1 id="session-ended-title" className="text-xl font-semibold tracking-tight text-fg">
                Your session has ended
              </h1>
              <GateText>{WHY[ended]}</GateText>
              {ended === "suspended" ? <SuspensionNotice until={suspendedUntil} before="It holds" /> : null}
            </div>
            <div className="mt-6">
              {ended === "suspended" ? null : behindProxy ? (
                // The proxy signs them in: a fresh load starts a new, empty session.
                <Button variant="primary" size="lg" onClick={() => window.location.reload()}>
                  Continue
                </Button>
              ) : (
                <SignInLink label="Sign in again" />
              )}
            </div>
          </Panel>
        </main>
      ) : null}
    </>
  );
}
