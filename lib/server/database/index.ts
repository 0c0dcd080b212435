/**
 * The databases a process opens: each opened and migrated on first use and shared by every caller of the same
 * registry. The console's one registry belongs to its composition root (lib/server/root); scripts make their own.
 * The console's settings come from lib/server/config (`storageSettingsFromConfig`).
 */
import "server-only";
import { openDatabase, resolveDataDir, type DatabaseHandle, type StorageSettings } from "./connection";
import { migrate } from "./migrate";

export { openDatabase, type Database, type DatabaseHandle, type StorageSettings } from "./connection";
export { migrate, pendingMigrations } from "./migrate";

export interface DatabaseRegistry {
  /** The opened and migrated database for these settings; a failed open is retried on the next call. */
  open(settings: StorageSettings): Promise<DatabaseHandle>;
  /** `stop` runs (and is awaited) before the databases close: a last write may still go through. */
  beforeClose(stop: () => void | Promise<void>): void;
  /** Closes every database this registry opened (tests, shutdown). */
  close(): Promise<void>;
}

/** One key per database: DATA_DIR unset, `.data` and its absolute path are one PGlite folder, opened once. */
function keyOf(settings: StorageSettings): string {
  return settings.databaseUrl ? `url:${settings.databaseUrl}` : `dir:${resolveDataDir(settings.dataDir)}`;
}

async function openMigrated(settings: StorageSettings): Promise<DatabaseHandle> {
  const opened = await openDatabase(settings);
  try {
    opened.migrated = await migrate(opened.db);
  } catch (error) {
    await opened.close().catch(() => {});
    throw error;
  }
  return opened;
}

export function createDatabaseRegistry(): DatabaseRegistry {
  const handles = new Map<string, Promise<DatabaseHandle>>();
  /** Work that must stop before the databases close (the background sweep), so it never opens one again. */
  const closing = new Set<() => void | Promise<void>>();
  return {
    open(settings) {
      const key = keyOf(settings);
      let handle = handles.get(key);
      if (!handle) {
        handle = openMigrated(settings);
        handles.set(key, handle);
        handle.catch(() => handles.delete(key));
      }
      return handle;
    },
    beforeClose(stop) {
      closing.add(stop);
    },
    async close() {
      const stops = [...closing];
      closing.clear();
      await Promise.all(stops.map(async (stop) => stop()));
      const all = [...handles.values()];
      handles.clear();
      await Promise.all(all.map(async (handle) => (await handle.catch(() => null))?.close()));
    },
  };
}

/** DATABASE_URL and DATA_DIR as lib/server/config validated them. */
export function storageSettingsFromConfig(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): StorageSettings {
  return { databaseUrl: config.databaseUrl, dataDir: config.dataDir };
}
