"use client";

import { useEffect } from "react";

/** Forms that Ctrl/Cmd+Enter submits carry this attribute. */
export const RUN_SHORTCUT_ATTRIBUTE = "data-run-shortcut";

/**
 * Ctrl+Enter (Cmd+Enter on a Mac) submits the page's current form: the one holding the focus if it takes
 * the shortcut, else the first such form on the page. Any page opts in by marking its form.
 */
export function RunShortcut() {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.altKey || event.repeat) return;
      if (document.querySelector("dialog[open]")) return;
      const selector = `form[${RUN_SHORTCUT_ATTRIBUTE}]`;
      const focused = document.activeElement?.closest<HTMLFormElement>(selector);
      const form = focused ?? document.querySelector<HTMLFormElement>(selector);
      if (!form) return;
      event.preventDefault();
      form.requestSubmit();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
  return null;
}
