/**
 * Opens the console's database: the PostgreSQL server named by `databaseUrl` (shared by every instance), or
 * else an embedded PostgreSQL (PGlite) persisted in `dataDir`. Both give the same drizzle API, so every query
 * is written once. PGlite is single-process: one DATA_DIR must never be opened by two processes at once, and a
 * lock file in the folder refuses a second opener with a clear error.
 */
import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface StorageSettings {
  /** A PostgreSQL URL; unset (or empty) selects the embedded database. */
  databaseUrl?: string;
  /** Folder of the embedded database (and of generated keys); `.data` by default. */
  dataDir?: string;
  /** Connections in the PostgreSQL pool; 10 by default. */
  maxConnections?: number;
}

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export const DEFAULT_DATA_DIR = ".data";

export function resolveDataDir(dataDir: string | undefined): string {
  return path.resolve(dataDir && dataDir.length > 0 ? dataDir : DEFAULT_DATA_DIR);
}

export async function openDatabase(settings: StorageSettings): Promise<DatabaseHandle> {
  if (settings.databaseUrl) {
    const [{ default: postgres }, { drizzle }] = await Promise.all([
      import("postgres"),
      import("drizzle-orm/postgres-js"),
    ]);
    const client = postgres(settings.databaseUrl, {
      max: settings.maxConnections ?? 10,
      onnotice: () => {},
      connect_timeout: 10,
      connection: { application_name: "card-services-console" },
    });
    return {
      db: drizzle({ client, schema }) as unknown as Database,
      kind: "postgres",
      close: () => client.end({ timeout: 5 }),
    };
  }
  const folder = path.join(resolveDataDir(settings.dataDir), "pglite");
  mkdirSync(folder, { recursive: true });
  const lock: DataDirLock = acquireDataDirLock(folder);
  try {
    const [{ PGlite }, { drizzle }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("drizzle-orm/pglite"),
    ]);
    const client = await PGlite.create(folder);
    return {
      db: drizzle({ client, schema }) as unknown as Database,
      kind: "pglite",
      close: async () => {
        try {
          await client.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
