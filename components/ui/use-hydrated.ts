"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False in the server's render and while hydrating it; true once React runs the page in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
