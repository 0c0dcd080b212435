"use client";

import { useCallback, useEffect, useReducer, useSyncExternalStore } from "react";
import { storedTheme, storeTheme } from "@/lib/client/preferences";

const SYSTEM_DARK = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}

const isDarkNow = () => document.documentElement.classList.contains("dark");

/** Applies the theme with transitions off for two frames, so that every colour changes at once. */
function applyTheme(dark: boolean) {
  const root = document.documentElement;
  root.classList.add("theme-switching");
  root.classList.toggle("dark", dark);
  requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove("theme-switching")));
}

const hasChoice = () => storedTheme() !== null;

/**
 * Light/dark toggle. The theme follows the system until the user picks one; "Follow the system" (shown
 * while a choice is stored) or picking the system's own theme again returns to following it.
 */
export function ThemeToggle() {
  const dark = useSyncExternalStore(subscribe, isDarkNow, () => false);
  // Re-read after each click: the stored choice can change without the class changing.
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const chosen = useSyncExternalStore(subscribe, hasChoice, () => false);

  useEffect(() => {
    const media = window.matchMedia(SYSTEM_DARK);
    const follow = () => {
      if (storedTheme() === null) applyTheme(media.matches);
    };
    media.addEventListener("change", follow);
    // The system may have switched between the first paint's inline script and hydration, when no listener
    // was there to hear it.
    follow();
    return () => media.removeEventListener("change", follow);
  }, []);

  const toggle = useCallback(() => {
    const next = !isDarkNow();
    applyTheme(next);
    const systemDark = window.matchMedia(SYSTEM_DARK).matches;
    storeTheme(next === systemDark ? null : next ? "dark" : "light");
    rerender();
  }, []);

  const followSystem = useCallback(() => {
    storeTheme(null);
    applyTheme(window.matchMedia(SYSTEM_DARK).matches);
    rerender();
  }, []);

  return (
    <span className="inline-flex items-center">
      {chosen ? (
        <button
          type="button"
          onClick={followSystem}
          title="Follow the system's light or dark setting again"
          className="rounded-md px-2 py-1 text-xs text-muted hover:bg-raised hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          Follow system
        </button>
      ) : null}
      <button
        type="button"
        onClick={toggle}
        aria-pressed={dark}
        aria-label="Dark theme"
        title={dark ? "Switch to the light theme" : "Switch to the dark theme"}
        className="inline-flex size-9 items-center justify-center rounded-md text-muted hover:bg-raised hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        {dark ? (
          <svg viewBox="0 0 20 20" fill="currentColor" className="size-5" aria-hidden="true">
            <path d="M10 2a.75.75 0 0 1 .75.75v1.5a.75.75 0 0 1-1.5 0v-1.5A.75.75 0 0 1 10 2Zm0 13a.75.75 0 0 1 .75.75v1.5a.75.75 0 0 1-1.5 0v-1.5A.75.75 0 0 1 10 15Zm0-8a3 3 0 1 0 0 6 3 3 0 0 0 0-6Zm5.657-1.596a.75.75 0 1 0-1.06-1.06l-1.061 1.06a.75.75 0 0 0 1.06 1.06l1.06-1.06Zm-9.193 9.192a.75.75 0 1 0-1.06-1.06l-1.06 1.06a.75.75 0 0 0 1.06 1.06l1.06-1.06ZM18 10a.75.75 0 0 1-.75.75h-1.5a.75.75 0 0 1 0-1.5h1.5A.75.75 0 0 1 18 10ZM5 10a.75.75 0 0 1-.75.75h-1.5a.75.75 0 0 1 0-1.5h1.5A.75.75 0 0 1 5 10Zm9.596 5.657a.75.75 0 0 0 1.06-1.06l-1.06-1.061a.75.75 0 1 0-1.06 1.06l1.06 1.06ZM5.404 6.464a.75.75 0 0 0 1.06-1.06l-1.06-1.06a.75.75 0 1 0-1.061 1.06l1.06 1.06Z" />
          </svg>
        ) : (
          <svg viewBox="0 0 20 20" fill="currentColor" className="size-5" aria-hidden="true">
            <path
              fillRule="evenodd"
              d="M7.455 2.004a.75.75 0 0 1 .26.77 7 7 0 0 0 9.958 7.967.75.75 0 0 1 1.067.853A8.5 8.5 0 1 1 6.647 1.921a.75.75 0 0 1 .808.083Z"
              clipRule="evenodd"
            />
          </svg>
        )}
      </button>
    </span>
  );
}
