import type { ReactNode } from "react";
import { MeProvider } from "@/components/team/me-provider";
import { NoRoleScreen } from "@/components/team/no-role-screen";
import { pageGate } from "@/components/team/page-gate";
import { SignInScreen } from "@/components/team/sign-in-screen";
import { SuspendedScreen } from "@/components/team/suspended-screen";
import { UnavailableScreen } from "@/components/team/unavailable-screen";
import { UserScope } from "@/components/team/user-scope";
import { ConsoleHeader } from "./console-header";
import { SessionEndedGuard } from "./session-ended-guard";
import { HistorySaveAlert } from "./history-save-alert";
import { RunShortcut } from "./run-shortcut";
import { SessionProvider } from "./session-provider";

/**
 * Header (user, environment, credentials, token countdown, theme), navigation and the page — for a signed-in
 * user with a role. Anyone else gets, from the server's first byte, the sign-in screen or the no-role page
 * instead, and none of the page's content.
 */
export async function ConsoleShell({ children }: { children: ReactNode }) {
  const gate = await pageGate();
  if (gate.kind === "sign_in") return <SignInScreen mode={gate.mode} provider={gate.provider} />;
  if (gate.kind === "unavailable") return <UnavailableScreen />;
  if (gate.kind === "suspended") return <SuspendedScreen until={gate.until} />;
  if (gate.kind === "no_role" && gate.me.user) return <NoRoleScreen user={gate.me.user} />;
  return (
    <SessionProvider>
      <MeProvider me={gate.me}>
        <UserScope userKey={gate.me.user?.key ?? "unknown"}>
          <SessionEndedGuard idleSeconds={gate.kind === "console" ? gate.idleSeconds : null}>
            <div className="flex min-h-screen flex-col">
              <a
                href="#main"
                className="sr-only z-50 rounded-md bg-indigo-600 px-3 py-2 text-sm text-inverted focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
              >
                Skip to content
              </a>
              <ConsoleHeader />
              <main
                id="main"
                tabIndex={-1}
                className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 sm:py-8"
              >
                {children}
              </main>
              <RunShortcut />
              <HistorySaveAlert />
            </div>
          </SessionEndedGuard>
        </UserScope>
      </MeProvider>
    </SessionProvider>
  );
}
