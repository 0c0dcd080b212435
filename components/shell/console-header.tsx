"use client";

import { useEffect, useRef, useState } from "react";
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
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // Escape closes the open menu from anywhere in it, and the keyboard goes back to where it was opened.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);
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
  const status =
    error && !session ? (
      <span role="alert" className="text-xs text-danger">
        Console API unavailable: {error.message}
      </span>
    ) : (
      <>
        <CredentialStatus session={session} />
        {showToken ? <TokenStatus session={session} /> : null}
      </>
    );
  return (
    <header
      ref={header}
      className={cx(
        // Opaque: content scrolling under a sticky header must not show through it.
        "sticky top-0 z-30 border-b bg-bar",
        production ? "border-danger-strong" : "border-default",
      )}
    >
      {production ? (
        <p className="bg-red-700 px-4 py-1 text-center text-xs font-medium text-inverted">
          Production: calls reach the live service, and a Gift Balance Inquiry records a real transaction.
        </p>
      ) : null}
      {/* On a phone the session's status and the navigation fold into the menu: the header stays one row. */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:px-6 sm:pb-0">
        <BrandLink />
        <div className="ml-auto flex items-center gap-1.5 sm:order-last sm:ml-0 sm:hidden">
          <button
            ref={menuButton}
            type="button"
            className="inline-flex h-8 items-center rounded-md border border-field px-2.5 text-sm font-medium text-fg hover:bg-raised focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
            aria-expanded={menuOpen}
            aria-controls="console-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
        </div>
        <div
          className={cx(
            menuOpen ? "flex w-full" : "hidden",
            "flex-wrap items-center gap-1.5 sm:flex sm:w-auto",
          )}
        >
          <EnvironmentSwitcher session={session} />
          {status}
          <ThemeToggle />
          <UserBadge />
        </div>
      </div>
      <div
        id="console-menu"
        className={cx(menuOpen ? "block" : "hidden", "sm:block")}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest("a")) setMenuOpen(false);
        }}
      >
        <NavLinks />
      </div>
    </header>
  );
}
