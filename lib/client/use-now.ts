import { useSyncExternalStore } from "react";

/** One shared 1-second ticker for every countdown on the page. */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let now = 0;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Milliseconds since the epoch, updated every second; 0 during server rendering and hydration. */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now || (now = Date.now()),
    () => 0,
  );
}

/** 5025 s → "1:23:45"; 65 s → "1:05"; negative → "0:00". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return `${h > 0 ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

export interface TokenClock {
  remainingSeconds: number;
  /** 1 at issue, 0 at expiry. */
  fractionLeft: number;
  expired: boolean;
}

export function tokenClock(issuedAt: string, expiresAt: string, nowMs: number): TokenClock {
  const issued = Date.parse(issuedAt);
  const expires = Date.parse(expiresAt);
  const remainingSeconds = Math.max(0, (expires - nowMs) / 1000);
  const lifetime = Math.max(1, (expires - issued) / 1000);
  return {
    remainingSeconds,
    fractionLeft: Math.min(1, Math.max(0, remainingSeconds / lifetime)),
    expired: nowMs >= expires,
  };
}
