"use client";

import { useSyncExternalStore } from "react";
import { scopedName } from "@/lib/client/user-scope";

/**
 * A value kept in this tab's sessionStorage (the support agent's shift), read without a hydration mismatch: the
 * server and the first render see `null`, then the stored value. Filed under the signed-in user's key
 * (lib/client/user-scope): the next person at the desk never sees this agent's reason or lookups.
 */
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function writeSessionValue(key: string, value: unknown): void {
  const name = scopedName(key);
  if (name === null) return;
  try {
    sessionStorage.setItem(name, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the page still works, it only forgets.
  }
  for (const listener of listeners) listener();
}

function readRaw(key: string): string | null {
  const name = scopedName(key);
  if (name === null) return null;
  try {
    return sessionStorage.getItem(name);
  } catch {
    return null;
  }
}

const parsed = new Map<string, unknown>();

/** The stored value (parsed once per distinct text), or `fallback`. */
export function useSessionValue<T>(key: string, fallback: T): T {
  const raw = useSyncExternalStore(
    subscribe,
    () => readRaw(key),
    () => null,
  );
  if (raw === null) return fallback;
  if (!parsed.has(raw)) {
    try {
      parsed.set(raw, JSON.parse(raw));
    } catch {
      parsed.set(raw, fallback);
    }
  }
  return parsed.get(raw) as T;
}
