"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useId, useRef, type KeyboardEvent } from "react";
import { onDemand } from "@/lib/client/on-demand";
import { cx } from "@/components/ui/class-names";
import { RunBoth } from "./run-both";

type View = "run" | "diff";

// "Diff two runs" (the record diff) is in no first load: fetched when the page is idle, and its panel filled
// whole once it is there.
const diffRunsModule = onDemand(() => import("./diff-runs"));

const TABS: { view: View; label: string }[] = [
  { view: "run", label: "Run both" },
  { view: "diff", label: "Diff two runs" },
];

/** The view and the chosen runs live in the URL (?view=diff&a=…&b=…), so a comparison can be linked to. */
function replaceSearch(update: (params: URLSearchParams) => void) {
  const params = new URLSearchParams(window.location.search);
  update(params);
  const query = params.toString();
  window.history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
}

export function CompareView() {
  const search = useSearchParams();
  const view: View = search.get("view") === "diff" ? "diff" : "run";
  const a = search.get("a");
  const b = search.get("b");
  const baseId = useId();
  const tabRefs = useRef<Record<View, HTMLButtonElement | null>>({ run: null, diff: null });
  const diffRuns = diffRunsModule.useModule();

  const select = useCallback((next: View) => {
    replaceSearch((params) => {
      if (next === "run") params.delete("view");
      else params.set("view", next);
    });
  }, []);

  const choose = useCallback((nextA: string | null, nextB: string | null) => {
    replaceSearch((params) => {
      params.set("view", "diff");
      for (const [key, value] of [
        ["a", nextA],
        ["b", nextB],
      ] as const) {
        if (value) params.set(key, value);
        else params.delete(key);
      }
    });
  }, []);

  // Arrow keys move between tabs (WAI-ARIA tabs pattern, automatic activation).
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (
      event.key !== "ArrowLeft" &&
      event.key !== "ArrowRight" &&
      event.key !== "Home" &&
      event.key !== "End"
    )
      return;
    event.preventDefault();
    const index = TABS.findIndex((tab) => tab.view === view);
    const next =
      event.key === "Home"
        ? 0
        : event.key === "End"
          ? TABS.length - 1
          : (index + (event.key === "ArrowRight" ? 1 : -1) + TABS.length) % TABS.length;
    const target = TABS[next]!.view;
    select(target);
    tabRefs.current[target]?.focus();
  }

  return (
    <div>
      <div
        role="tablist"
        aria-label="Compare"
        onKeyDown={onKeyDown}
        className="mb-6 inline-flex rounded-lg border border-default bg-raised p-1"
      >
        {TABS.map((tab) => {
          const selected = tab.view === view;
          return (
            <button
              key={tab.view}
              ref={(element) => {
                tabRefs.current[tab.view] = element;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.view}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel-${tab.view}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(tab.view)}
              className={cx(
                "rounded-md px-4 py-1.5 text-sm font-medium transition-colors",
                "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500",
                selected ? "bg-selected text-fg shadow-sm" : "text-muted hover:text-fg",
              )}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {/* Both panels stay mounted: switching tabs keeps a run's results and the chosen pair. */}
      {TABS.map((tab) => (
        <div
          key={tab.view}
          role="tabpanel"
          id={`${baseId}-panel-${tab.view}`}
          aria-labelledby={`${baseId}-tab-${tab.view}`}
          hidden={tab.view !== view}
        >
          {tab.view === "run" ? <RunBoth onDiff={(giftId, balanceId) => choose(giftId, balanceId)} /> : null}
          {tab.view === "diff" && diffRuns ? <diffRuns.DiffRuns a={a} b={b} onChange={choose} /> : null}
        </div>
      ))}
    </div>
  );
}
