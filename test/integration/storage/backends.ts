/**
 * The two storage backends every storage test runs against: the embedded PGlite (a temporary DATA_DIR holding
 * a copy of the run's migrated template) and a real PostgreSQL (a throwaway cluster, one database per suite).
 * `useBackend` opens and migrates one for a describe block and closes it after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { migrate, openDatabase, type DatabaseHandle, type StorageSettings } from "@/lib/server/database";
import { seedDataDir } from "../../support/pglite-template";
import { startPostgres, type PostgresCluster } from "../../support/postgres";

export const BACKENDS = ["pglite", "postgres"] as const;
export type BackendKind = (typeof BACKENDS)[number];

export interface Backend {
  handle: DatabaseHandle;
  settings: StorageSettings;
  /** Set for `postgres`. */
  cluster?: PostgresCluster;
  /** Opens another connection pool to the same PostgreSQL database (a second instance); `postgres` only. */
  openAnother(): Promise<DatabaseHandle>;
}

let sharedCluster: Promise<PostgresCluster> | undefined;

/** One cluster per test file, stopped when its last suite ends. */
function cluster(): Promise<PostgresCluster> {
  return (sharedCluster ??= startPostgres());
}

export function useBackend(kind: BackendKind): Backend {
  const backend = {} as Backend;
  const cleanups: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    if (kind === "postgres") {
      const pg = await cluster();
      backend.cluster = pg;
      backend.settings = { databaseUrl: pg.createDatabase() };
      cleanups.push(async () => {
        sharedCluster = undefined;
        await pg.stop();
      });
    } else {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "console-data-"));
      // The run's migrated template: PGlite's initdb and the migrations from nothing are proven once per run
      // (test/setup/pglite.ts), and cost seconds of CPU per folder.
      seedDataDir(dataDir);
      backend.settings = { dataDir };
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    }
    backend.handle = await openDatabase(backend.settings);
    cleanups.unshift(() => backend.handle.close());
    await migrate(backend.handle.db);
    backend.openAnother = async () => {
      if (kind !== "postgres") throw new Error("PGlite is single-process: no second instance.");
      const another = await openDatabase(backend.settings);
      cleanups.unshift(() => another.close());
      return another;
    };
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });
  return backend;
}

/** Plays someone with owner rights on the database: lifts the append-only trigger for one change. */
export async function asDatabaseOwner(
  handle: DatabaseHandle,
  statements: ReturnType<typeof sql>[],
): Promise<void> {
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    for (const statement of statements) await tx.execute(statement);
    await tx.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
  });
}
