"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};
const isApple = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The run shortcut as the user's keyboard labels it: ⌘↵ on Apple devices, Ctrl ↵ elsewhere. */
export function RunShortcutHint({ className = "" }: { className?: string }) {
  const apple = useSyncExternalStore(subscribe, isApple, () => false);
  // Only where there is a keyboard to press it: a touch screen shows no key hints.
  return (
    <span className="hidden keyboard:contents">
      <kbd
        className={`rounded border border-current/30 px-1 font-sans text-[0.7rem] leading-4 opacity-90 ${className}`}
        aria-label={apple ? "Command Enter" : "Control Enter"}
      >
        {apple ? "⌘ ↵" : "Ctrl ↵"}
      </kbd>
    </span>
  );
}
