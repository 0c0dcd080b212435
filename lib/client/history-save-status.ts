/**
 * History writes that failed after a run (IndexedDB blocked, disk full): a run must still show its result,
 * but the user must be told that it was not kept, never lose it silently. One list per page, read with
 * useSyncExternalStore by the shell's notice.
 */

export interface HistorySaveFailure {
  id: number;
  /** What was not kept, e.g. "Gift Balance Inquiry 600649******0001". */
  what: string;
  message: string;
}

let failures: readonly HistorySaveFailure[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function reportHistorySaveFailure(what: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  failures = [...failures, { id: nextId++, what, message }];
  emit();
}

export function dismissHistorySaveFailures(): void {
  failures = [];
  emit();
}

export function historySaveFailures(): readonly HistorySaveFailure[] {
  return failures;
}

export function subscribeHistorySaveFailures(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
