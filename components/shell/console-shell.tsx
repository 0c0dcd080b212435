import type { ReactNode } from "react";
import { ConsoleHeader } from "./console-header";
import { HistorySaveAlert } from "./history-save-alert";
import { RunShortcut } from "./run-shortcut";
import { SessionProvider } from "./session-provider";

/** Header (environment, credentials, token countdown, theme), navigation and the page. */
export function ConsoleShell({ children }: { children: ReactNode }) {
  return (
    <SessionProvider>
      <div className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-indigo-600 px-3 py-2 text-sm text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
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
    </SessionProvider>
  );
}
