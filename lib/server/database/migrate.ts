/**
 * Applies the committed SQL migrations (db/migrations, written by drizzle-kit) in order, each once. The whole run
 * is one transaction under a PostgreSQL advisory lock, so instances starting together on one server take turns:
 * the first applies, the others find nothing left to do. Idempotent on every start.
 */
import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Database } from "./connection";
import { queryRows } from "./rows";

/** Created by this runner before any migration, so it is not part of lib/server/database/schema.ts. */
const schemaMigrations = pgTable("schema_migrations", {
  tag: text("tag").primaryKey(),
  appliedAt: timestamp("applied_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** Any constant shared by every instance; "card-console-migrate" as 64-bit. */
const MIGRATION_LOCK_KEY = 0x63617264_6d696772n;

const journalSchema = z.object({
  entries: z.array(z.object({ idx: z.number(), tag: z.string().regex(/^[\w-]+$/) })),
});

/**
 * db/migrations of the application folder: the server (scripts/serve.mjs, in the repository or in the
 * standalone output) makes that folder the working directory before Next starts, wherever it was launched from.
 */
function defaultMigrationsDir(): string {
  return path.join(process.cwd(), "db", "migrations");
}

export interface Migration {
  tag: string;
  statements: string[];
}

export async function readMigrations(migrationsDir = defaultMigrationsDir()): Promise<Migration[]> {
  const journalFile = path.join(migrationsDir, "meta", "_journal.json");
  const journalText = await readFile(journalFile, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `cannot read the database migrations (${journalFile}: ${error.code ?? error.message}); ` +
        "db/migrations must ship next to the server",
    );
  });
  const journal = journalSchema.parse(JSON.parse(journalText));
  const entries = [...journal.entries].sort((a, b) => a.idx - b.idx);
  return Promise.all(
    entries.map(async ({ tag }) => ({
      tag,
      statements: (await readFile(path.join(migrationsDir, `${tag}.sql`), "utf8"))
        .split("--> statement-breakpoint")
        .map((statement) => statement.trim())
        .filter((statement) => statement.length > 0),
    })),
  );
}

/** Returns the tags applied by this call (empty when the schema was already current). */
export async function migrate(db: Database, migrationsDir?: string): Promise<string[]> {
  const migrations = await readMigrations(migrationsDir);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`);
    // Created only when absent: the console's own role (docs/operations/postgresql-and-instances.md, Database roles) may not create tables at all,
    // and an existing, current schema needs nothing from it but reads.
    const [found] = await queryRows<{ name: string | null }>(
      tx,
      sql`select to_regclass('schema_migrations')::text as name`,
    );
    if (!found?.name) {
      await tx.execute(
        sql`create table "schema_migrations" ("tag" text primary key, "applied_at" timestamptz not null)`,
      );
    }
    const applied = new Set(
      (await tx.select({ tag: schemaMigrations.tag }).from(schemaMigrations)).map((r) => r.tag),
    );
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.tag)) continue;
      for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      await tx.insert(schemaMigrations).values({ tag: migration.tag, appliedAt: new Date() });
      done.push(migration.tag);
    }
    return done;
  });
}

/** Tags in db/migrations that the database has not applied yet ([] when current). */
export async function pendingMigrations(db: Database, migrationsDir?: string): Promise<string[]> {
  const migrations = await readMigrations(migrationsDir);
  const [table] = await queryRows<{ name: string | null }>(
    db,
    sql`select to_regclass('schema_migrations')::text as name`,
  );
  if (!table?.name) return migrations.map((m) => m.tag);
  const applied = new Set(
    (await db.select({ tag: schemaMigrations.tag }).from(schemaMigrations)).map((r) => r.tag),
  );
  return migrations.filter((m) => !applied.has(m.tag)).map((m) => m.tag);
}
