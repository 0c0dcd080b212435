/**
 * Vitest runs each project's global setup with its own module instances, in one process: a resource kept on
 * globalThis is started by the first project that needs it and stopped after the last one releases it, so the
 * integration and browser projects of one run share it.
 */
interface Entry {
  value: Promise<unknown>;
  users: number;
  stop: () => Promise<void> | void;
}

const RUN_KEY = Symbol.for("card-services-console.test-run-resources");
const entries: Map<string, Entry> = ((globalThis as Record<symbol, unknown>)[RUN_KEY] ??= new Map<
  string,
  Entry
>()) as Map<string, Entry>;

/** The run's one `name`, started by `start` on first use; call the returned release once when done. */
export async function oncePerRun<T>(
  name: string,
  start: () => Promise<T>,
  stop: (value: T) => Promise<void> | void,
): Promise<{ value: T; release: () => Promise<void> }> {
  let entry = entries.get(name);
  if (!entry) {
    const value = start();
    entry = { value, users: 0, stop: async () => stop(await value) };
    entries.set(name, entry);
    value.catch(() => entries.delete(name));
  }
  entry.users += 1;
  const current = entry;
  const value = (await current.value) as T;
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    current.users -= 1;
    if (current.users > 0) return;
    entries.delete(name);
    await current.stop();
  };
  return { value, release };
}
