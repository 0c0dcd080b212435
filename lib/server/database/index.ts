/**
 * The process's one database: opened and migrated on first use, shared by every caller (and by Next's bundle
 * copies of this module, through a global). The console's settings come from lib/server/config
 * (`storageSettingsFromConfig`); `storageSettingsFromEnv` reads the same two variables for scripts without it.
 */
import "server-only";
import { openDatabase, resolveDataDir, type DatabaseHandle, type StorageSettings } from "./connection";
import { migrate } from "./migrate";
import { processSingleton } from "@/lib/server/process-singleton";

export {
  openDatabase,
  resolveDataDir,
  type Database,
  type DatabaseHandle,
  type StorageSettings,
} from "./connection";
export { migrate, pendingMigrations } from "./migrate";

const GLOBAL_KEY = Symbol.for("card-services-console.database");
type Holder = typeof globalThis & { [GLOBAL_KEY]?: Map<string, Promise<DatabaseHandle>> };

function handles(): Map<string, Promise<DatabaseHandle>> {
  const holder = globalThis as Holder;
  return (holder[GLOBAL_KEY] ??= new Map());
}

/** One key per database: DATA_DIR unset, `.data` and its absolute path are one PGlite folder, opened once. */
function keyOf(settings: StorageSettings): string {
  return settings.databaseUrl ? `url:${settings.databaseUrl}` : `dir:${resolveDataDir(settings.dataDir)}`;
}

/** The opened and migrated database for these settings; a failed open is retried on the next call. */
export function getDatabase(settings: StorageSettings): Promise<DatabaseHandle> {
  const key = keyOf(settings);
  let handle = handles().get(key);
  if (!handle) {
    handle = (async () => {
      const opened = await openDatabase(settings);
      try {
        await migrate(opened.db);
      } catch (error) {
        await opened.close().catch(() => {});
        throw error;
      }
      return opened;
    })();
    handles().set(key, handle);
    handle.catch(() => handles().delete(key));
  }
  return handle;
}

/** Work that must stop before the databases close (the background sweep), so it never opens one again. */
const closingListeners = () =>
  processSingleton("database-closing-listeners", () => new Set<() => void | Promise<void>>());

/** `stop` runs (and is awaited) before the databases close: a last write may still go through. */
export function beforeDatabasesClose(stop: () => void | Promise<void>): void {
  closingListeners().add(stop);
}

/** Closes every database this process opened (tests, shutdown). */
export async function closeDatabases(): Promise<void> {
  const stops = [...closingListeners()];
  closingListeners().clear();
  await Promise.all(stops.map(async (stop) => stop()));
  const all = [...handles().values()];
  handles().clear();
  await Promise.all(all.map(async (handle) => (await handle.catch(() => null))?.close()));
}

// scripts/serve.mjs closes the database on SIGTERM through this slot: it cannot import this (bundled) module.
(globalThis as Record<symbol, unknown>)[Symbol.for("card-services-console.close-databases")] = closeDatabases;

/** DATABASE_URL and DATA_DIR as lib/server/config validated them. */
export function storageSettingsFromConfig(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): StorageSettings {
  return { databaseUrl: config.databaseUrl, dataDir: config.dataDir };
}

export function storageSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): StorageSettings {
  return { databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR || undefined };
}
