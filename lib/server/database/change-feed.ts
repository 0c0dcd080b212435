/**
 * Tells every instance that a session ended, so that each may keep live session rows in memory (the session
 * store's cache) and still end a session everywhere at once. On PostgreSQL the ends travel by NOTIFY on one
 * channel to a dedicated LISTEN connection per instance; while that connection is down (`live()` false) no
 * instance may trust its cache, and when it comes back every cached row is dropped (`generation()` moves), since
 * ends notified meanwhile were lost. With PGlite one process owns the data, so delivering in-process is all.
 */
import "server-only";

/**
 * The channel of session ends (payload: the SHA-256, hex, of the session id, never the id itself) and of
 * suspension changes (payload: `suspension:` and a fresh UUID).
 */
export const SESSION_ENDED_CHANNEL = "csc_session_ended";

export interface ChangeFeed {
  readonly kind: "local" | "notify";
  /** True while every end, on any instance, is sure to be delivered to `subscribe`'s listeners. */
  live(): boolean;
  /** Moves whenever the feed comes back after being down: what was cached before may have missed an end. */
  generation(): number;
  /** Moves with every delivery and every change of `live`: a read that saw it move must not be cached. */
  epoch(): number;
  subscribe(listener: (payload: string) => void): () => void;
  /** Delivers to this process's listeners now (the database's NOTIFY reaches the other instances). */
  publishLocally(payload: string): void;
  /** Resolves when this process's LISTEN connection delivered `payload` (false after `waitMs` or when down). */
  delivered(payload: string, waitMs: number): Promise<boolean>;
  close(): Promise<void>;
}

function feedCore(kind: ChangeFeed["kind"]) {
  const listeners = new Set<(payload: string) => void>();
  const waiting = new Map<string, Set<() => void>>();
  const state = { live: kind === "local", generation: 0, epoch: 0 };
  // Deliveries that may come before anyone waits for them (the NOTIFY can beat the COMMIT's answer).
  const recent = new Set<string>();
  const deliver = (payload: string) => {
    state.epoch += 1;
    recent.add(payload);
    if (recent.size > 1000) recent.delete(recent.values().next().value as string);
    for (const listener of listeners) listener(payload);
    for (const resolve of waiting.get(payload) ?? []) resolve();
    waiting.delete(payload);
  };
  const setLive = (value: boolean) => {
    if (state.live === value) return;
    state.live = value;
    state.epoch += 1;
    if (value) state.generation += 1;
  };
  const feed: Omit<ChangeFeed, "close"> = {
    kind,
    live: () => state.live,
    generation: () => state.generation,
    epoch: () => state.epoch,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publishLocally: (payload) => {
      state.epoch += 1;
      for (const listener of listeners) listener(payload);
    },
    delivered(payload, waitMs) {
      if (recent.has(payload)) return Promise.resolve(true);
      if (!state.live) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiting.get(payload)?.delete(done);
          resolve(false);
        }, waitMs);
        timer.unref?.();
        const set = waiting.get(payload) ?? new Set();
        set.add(done);
        waiting.set(payload, set);
      });
    },
  };
  return { feed, deliver, setLive };
}

/** PGlite: one process owns the database, so an end delivered in-process has reached every reader. */
export function localFeed(): ChangeFeed {
  const { feed } = feedCore("local");
  return { ...feed, delivered: async () => true, close: async () => {} };
}

/** PostgreSQL: a LISTEN connection of its own, re-established with backoff whenever it drops. */
export async function notifyFeed(databaseUrl: string): Promise<ChangeFeed> {
  const { default: postgres } = await import("postgres");
  const { feed, deliver, setLive } = feedCore("notify");
  let closed = false;
  let retryMs = 100;
  let retryTimer: NodeJS.Timeout | undefined;
  // `onnotify` is a connection option postgres.js honours (its own listen() uses it) but does not declare.
  const options = {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    fetch_types: false,
    connect_timeout: 5,
    onnotice: () => {},
    connection: { application_name: "card-services-console session feed" },
    onnotify: (channel: string, payload: string) => {
      if (channel === SESSION_ENDED_CHANNEL) deliver(payload);
    },
    onclose: () => {
      setLive(false);
      if (!closed) scheduleListen();
    },
  };
  const client = postgres(databaseUrl, options as Parameters<typeof postgres>[1]);
  async function listen(): Promise<void> {
    try {
      await client.unsafe(`listen "${SESSION_ENDED_CHANNEL}"`);
      retryMs = 100;
      setLive(true);
    } catch {
      setLive(false);
      if (!closed) scheduleListen();
    }
  }
  function scheduleListen(): void {
    if (retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void listen();
    }, retryMs);
    retryTimer.unref?.();
    retryMs = Math.min(retryMs * 2, 5000);
  }
  await listen();
  return {
    ...feed,
    close: async () => {
      closed = true;
      clearTimeout(retryTimer);
      setLive(false);
      await client.end({ timeout: 2 });
    },
  };
}
