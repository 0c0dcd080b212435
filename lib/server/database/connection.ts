/**
 * Opens the console's database: the PostgreSQL server named by `databaseUrl` (shared by every instance), or
 * else an embedded PostgreSQL (PGlite) persisted in `dataDir`. Both give the same drizzle API, so every query
 * is written once. PGlite is single-process: one DATA_DIR must never be opened by two processes at once, and a
 * lock file in the folder refuses a second opener with a clear error.
 */
import "server-only";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { localFeed, notifyFeed, type ChangeFeed } from "./change-feed";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock";
import { pgliteStartParams } from "./pglite-settings.mjs";
import { resolveDataDir } from "@/lib/server/util/data-dir";

export { resolveDataDir } from "@/lib/server/util/data-dir";

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
  /** Session ends, delivered to every instance (lets the session store cache live rows). */
  sessionFeed: ChangeFeed;
  /** The migrations this process applied when it opened the database (set by the registry). */
  migrated?: readonly string[];
  close(): Promise<void>;
}

const asText = (value: string) => value;
/** The types drizzle's PGlite driver reads as text (timestamp, timestamptz, interval, date and their arrays). */
const DRIZZLE_TEXT_PARSERS = Object.fromEntries(
  [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, asText]),
);

/** Creates the database in `folder` in a process of its own (see pglite-initdb.mjs for why). */
function createPgliteFolder(folder: string): Promise<void> {
  const script = path.join(process.cwd(), "lib", "server", "database", "pglite-initdb.mjs");
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, folder], (error, _stdout, stderr) => {
      if (error)
        reject(new Error(`creating the embedded database in ${folder} failed: ${stderr || error.message}`));
      else resolve();
    });
  });
}

type QueryOptions = { rowMode?: "array" | "object"; parsers?: unknown } | undefined;
interface QueryingClient {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<unknown>;
}

/** Drops the per-query parsers drizzle passes (the same ones the client already has), keeping the row mode. */
function withoutPerQueryParsers(client: QueryingClient): void {
  const query = client.query.bind(client);
  client.query = (text, params, options) =>
    query(text, params, options?.parsers ? { rowMode: options.rowMode } : options);
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
    const sessionFeed = await notifyFeed(settings.databaseUrl);
    return {
      db: drizzle({ client, schema }) as unknown as Database,
      kind: "postgres",
      sessionFeed,
      close: async () => {
        await sessionFeed.close();
        await client.end({ timeout: 5 });
      },
    };
  }
  const folder = path.join(resolveDataDir(settings.dataDir), "pglite");
  mkdirSync(folder, { recursive: true });
  const lock: DataDirLock = acquireDataDirLock(folder);
  try {
    const [{ PGlite, protocol, types }, { drizzle }, { pglitePreparedQueries }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("drizzle-orm/pglite"),
      import("./pglite-prepared"),
    ]);
    // drizzle's own parsers (timestamps and intervals as text), set once here: PGlite copies its whole parser table
    // on every query that brings parsers of its own, which drizzle's calls would otherwise do.
    const startParams = pgliteStartParams(PGlite.defaultStartParams);
    if (!existsSync(path.join(folder, "PG_VERSION"))) await createPgliteFolder(folder);
    const client = await PGlite.create(folder, { parsers: DRIZZLE_TEXT_PARSERS, startParams });
    withoutPerQueryParsers(client);
    const queryPrepared = pglitePreparedQueries(client, {
      serialize: protocol.serialize,
      arraySerializer: types.arraySerializer,
    });
    return {
      db: drizzle({ client: Object.assign(client, { queryPrepared }), schema }) as unknown as Database,
      kind: "pglite",
      sessionFeed: localFeed(),
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
