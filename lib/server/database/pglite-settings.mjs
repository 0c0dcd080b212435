// @ts-check
/**
 * PostgreSQL's settings for the embedded database, on top of PGlite's own (single-user mode, fsync off as
 * documented in docs/operations/postgresql-and-instances.md, Durability). PostgreSQL's defaults are sized for a server of its own: 128 MB of
 * shared buffers, which PGlite allocates and touches at start inside the console's process. The console's
 * working set (sessions, rate-limit rows, the newest audit rows) fits in a small fraction of that, and every
 * page it evicts is still in the kernel's page cache.
 *
 * Plain JavaScript: the server (connection.ts) and the initdb process (pglite-initdb.mjs, also run by
 * scripts/embedded-database.mjs during `npm start`'s build) read the same list.
 */
const PGLITE_SETTINGS = [
  "shared_buffers=16MB",
  // CREATE INDEX in a migration, the only maintenance the console runs; 64 MB by default.
  "maintenance_work_mem=16MB",
  // Temporary tables: the console makes none; 8 MB by default.
  "temp_buffers=1MB",
];

/**
 * PGlite's own start parameters followed by the console's settings.
 * @param {readonly string[]} defaults
 * @returns {string[]}
 */
export function pgliteStartParams(defaults) {
  return [...defaults, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])];
}
