"use client";

import { useEffect, useSyncExternalStore } from "react";
import { GateText } from "./gate-frame";

/** How often a suspended page asks whether the suspension still holds. */
const WATCH_EVERY_MS = 10_000;

/**
 * Whether the caller is still suspended: a call of theirs is refused 403 `user_suspended` while it holds. A plain
 * fetch, not the console's fetcher: its answer must not end or change this page's state.
 */
async function stillSuspended(): Promise<boolean> {
  try {
    const response = await fetch("/api/session", {
      headers: { Accept: "application/json" },
      cache: "no-store",
    });
    if (response.status !== 403) return false;
    const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
    return body?.error?.code === "user_suspended";
  } catch {
    // The console could not be reached: nothing is known, so the page waits.
    return true;
  }
}

/** The page reloads by itself once the suspension is lifted or has run out (checked every few seconds). */
function useReloadWhenLifted(until: string | null): void {
  useEffect(() => {
    let stopped = false;
    const check = async () => {
      if (!stopped && !(await stillSuspended()) && !stopped) window.location.reload();
    };
    const timer = setInterval(() => void check(), WATCH_EVERY_MS);
    // Past its end the suspension is over: check then rather than at the next tick.
    const end = until ? Date.parse(until) - Date.now() + 500 : NaN;
    const atEnd =
      Number.isFinite(end) && end < 2 ** 31 - 1 ? setTimeout(() => void check(), Math.max(0, end)) : null;
    return () => {
      stopped = true;
      clearInterval(timer);
      if (atEnd) clearTimeout(atEnd);
    };
  }, [until]);
}

const noSubscription = () => () => {};

/**
 * `iso` in this browser's local time, as the console shows every other time. The server knows no browser's time
 * zone: the first render (on the server, and hydrating it) shows nothing, the browser's own the local time.
 */
function LocalTime({ iso }: { iso: string }) {
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return <time dateTime={iso}>{inBrowser ? new Date(iso).toLocaleString() : ""}</time>;
}

/**
 * Why a suspended user sees nothing, until when (local time), and what happens next: the page comes back by itself
 * when an administrator lifts the suspension or it runs out.
 */
export function SuspensionNotice({ until, before }: { until: string | null; before: string }) {
  useReloadWhenLifted(until);
  return (
    <GateText>
      {before}{" "}
      {until ? (
        <>
          until <LocalTime iso={until} />
        </>
      ) : (
        "for now"
      )}
      . This page comes back by itself when the suspension is lifted or ends; ask an administrator if you need
      it sooner.
    </GateText>
  );
}
