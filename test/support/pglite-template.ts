/**
 * A pre-migrated embedded database to copy instead of creating one: PGlite's initdb and the migrations cost
 * seconds per folder, a copy of a closed PGlite folder (a plain PGDATA) costs milliseconds and opens the same.
 * The run's global setup (test/setup/pglite.ts) makes the template once; `seedDataDir` copies it into a fresh
 * DATA_DIR, and does nothing when no template was provided (the folder is then created and migrated on open).
 */
import { cpSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { provided } from "./shared";

/** The embedded database's folder inside a DATA_DIR (lib/server/database/connection.ts). */
const PGLITE_FOLDER = "pglite";

/** Copies the run's migrated template into `dataDir` unless it already holds a database; true when copied. */
export function seedDataDir(dataDir: string): boolean {
  const template = provided("pgliteTemplate");
  const target = path.join(dataDir, PGLITE_FOLDER);
  if (!template || existsSync(target)) return false;
  mkdirSync(dataDir, { recursive: true });
  cpSync(path.join(template, PGLITE_FOLDER), target, { recursive: true });
  return true;
}
