/**
 * Whether this page's session is over, known in the browser: a call answered 401 `not_signed_in` (with why,
 * when the server could tell), or no call was made for the idle timeout (the server has ended the session by
 * then: it checks the same limit, only more coarsely), or 403 `user_suspended`. The shell then hides the page and
 * offers Sign in again (behind a proxy: Continue, which the proxy's headers sign straight back in).
 */
import { useSyncExternalStore } from "react";

export type SessionEnd = "idle" | "expired" | "signed_out" | "revoked" | "suspended" | "ended";

/** Ends an administrator decided: what this browser kept for the user goes too (they start clean). */
export const ENDED_BY_ADMIN: readonly SessionEnd[] = ["revoked", "suspended"];

let ended: SessionEnd | null = null;
/** Until when (ISO) a suspension holds, when the server said. */
let suspendedUntil: string | null = null;
let lastCallAt = Date.now();
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `until`: when a suspension ends (403 `user_suspended`'s `details.until`). */
export function reportSessionEnded(reason: SessionEnd, until?: string | null): void {
  if (ended !== null) return;
  ended = reason;
  suspendedUntil = until ?? null;
  for (const listener of listeners) listener();
}

/** A call reached the console with the session: the idle clock starts again. */
export function noteApiCall(): void {
  lastCallAt = Date.now();
}

export function lastApiCallAt(): number {
  return lastCallAt;
}

export function useSessionEnded(): SessionEnd | null {
  return useSyncExternalStore(
    subscribe,
    () => ended,
    () => null,
  );
}

/** Until when the suspension that ended this page's session holds (ISO), or null. */
export function useSuspendedUntil(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => suspendedUntil,
    () => null,
  );
}

const KNOWN: readonly SessionEnd[] = ["idle", "expired", "signed_out", "revoked"];

/** The reason a 401 `not_signed_in` gives in `details.session_end`, or `ended` when it gives none. */
export function sessionEndOf(details: unknown): SessionEnd {
  const reason =
    typeof details === "object" && details !== null
      ? (details as { session_end?: unknown }).session_end
      : null;
  return KNOWN.find((known) => known === reason) ?? "ended";
}
