// @ts-check
/**
 * Creates an embedded database folder (PGlite's initdb) and exits. lib/server/database/connection.ts runs it
 * as a short-lived process for a folder with no database yet: PGlite's initdb works in a second WASM instance
 * whose few hundred MB would otherwise stay in the console's heap until a garbage collection that an idle
 * console may never run; a process gives all of it back when it exits.
 *
 * Plain JavaScript: it runs as it is from the repository and from the standalone output (copied by
 * next.config.js outputFileTracingIncludes), with no bundler.
 *
 * argv: <folder>; the start parameters are the server's own (pglite-settings.mjs).
 */
import { PGlite } from "@electric-sql/pglite";
import { pgliteStartParams } from "./pglite-settings.mjs";

const [folder] = process.argv.slice(2);
if (!folder) {
  console.error("usage: pglite-initdb.mjs <folder>");
  process.exit(2);
}
const db = await PGlite.create(folder, { startParams: pgliteStartParams(PGlite.defaultStartParams) });
await db.close();
