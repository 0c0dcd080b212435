"use client";

import { useEffect, useRef } from "react";
import { allowsIn, useAllows } from "@/components/team/use-me";
import { UserBadge } from "@/components/team/user-badge";
import { useSession } from "@/lib/client/use-session-api";
import { cx } from "@/components/ui/class-names";
import { EnvironmentSwitcher } from "./environment-switcher";
import { BrandLink } from "./logo";
import { NavLinks } from "./nav-links";
import { CredentialStatus, TokenStatus } from "./session-status";
import { ThemeToggle } from "./theme-toggle";

export function ConsoleHeader() {
  const { data: session, error } = useSession();
  const production = session?.environment === "production";
  const allows = useAllows();
  // The countdown is token detail: only for roles that may see it in this environment.
  const showToken = !session || !allows || allowsIn(allows, "token_details", session.environment);
  const header = useRef<HTMLElement>(null);
  // Whatever the header's height (it wraps on narrow screens), scrolling to a heading or an anchor stops
  // below it, not under it: the page's scroll padding follows the header.
  useEffect(() => {
    const element = header.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.scrollPaddingTop = `${element.offsetHeight + 16}px`;
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingTop = "";
    };
  }, []);
  return (
    <header
      ref={header}
      className={cx(
        "sticky top-0 z-30 border-b bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85 dark:bg-slate-950/95 dark:supports-[backdrop-filter]:bg-slate-950/85",
        production ? "border-red-600 dark:border-red-500" : "border-slate-200 dark:border-slate-800",
      )}
    >
      {production ? (
        <p className="bg-red-700 px-4 py-1 text-center text-xs font-medium text-white">
          Production: calls reach the live service, and a Gift Balance Inquiry records a real transaction.
        </p>
      ) : null}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 pt-2.5 sm:px-6">
        <BrandLink />
        <div className="flex flex-wrap items-center gap-1.5">
          {error && !session ? (
            <span role="alert" className="text-xs text-red-700 dark:text-red-300">
              Console API unavailable: {error.message}
            </span>
          ) : (
            <>
              <EnvironmentSwitcher session={session} />
              <CredentialStatus session={session} />
              {showToken ? <TokenStatus session={session} /> : null}
            </>
          )}
          <ThemeToggle />
          <UserBadge />
        </div>
      </div>
      <NavLinks />
    </header>
  );
}
