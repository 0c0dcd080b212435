import { useEffect, useSyncExternalStore } from "react";

/** A module kept out of a page's first load: fetched when the browser is idle, or at once when first needed. */
export interface OnDemandModule<Module> {
  /** Starts the fetch (once; a failed fetch is tried again by the next call). */
  load(): Promise<void>;
  /**
   * The module once it has loaded, else null (always null while hydrating, so the server's HTML matches);
   * a component that calls this asks for the module to be fetched, again on each render after a failure.
   */
  useModule(): Module | null;
}

/**
 * `importModule` must be a literal `() => import("./file")` so the bundler gives the module its own chunk.
 * With `whenIdle`, the fetch starts when the page is idle after loading, so a user seldom waits for it.
 */
export function onDemand<Module>(
  importModule: () => Promise<Module>,
  { whenIdle = true }: { whenIdle?: boolean } = {},
): OnDemandModule<Module> {
  let loaded: Module | null = null;
  let loading: Promise<void> | null = null;
  const listeners = new Set<() => void>();

  function load(): Promise<void> {
    loading ??= importModule().then(
      (module) => {
        loaded = module;
        for (const listener of listeners) listener();
      },
      () => {
        loading = null; // tried again by the next caller
      },
    );
    return loading;
  }

  function subscribe(listener: () => void): () => void {
    listeners.add(listener);
    void load();
    return () => listeners.delete(listener);
  }

  if (whenIdle && typeof window !== "undefined") {
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 1));
    idle(() => void load());
  }

  return {
    load,
    useModule() {
      const current = useSyncExternalStore(
        subscribe,
        () => loaded,
        () => null,
      );
      // A failed fetch (a network blip) is tried again when the user does something that renders the page.
      useEffect(() => {
        if (!current) void load();
      });
      return current;
    },
  };
}
