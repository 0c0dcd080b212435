// @ts-check
// The first start's embedded database, made while the build runs. Without a database folder the server creates
// one before it answers (PGlite's initdb: 3 to 5 s of one core); the build leaves most of a second core idle, so
// `npm start` runs the same initdb (lib/server/database/pglite-initdb.mjs) beside it. The server then finds the
// folder made and only applies its migrations.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import nextEnv from "@next/env";

/**
 * The folder the server would create its embedded database in, or undefined when it would not create one:
 * DATABASE_URL set (PostgreSQL), or the folder already there. Reads the .env files as scripts/serve.mjs does.
 * @param {string} root
 * @returns {string | undefined}
 */
export function missingDatabaseFolder(root) {
  const quiet = { info: () => {}, error: () => {} };
  const { combinedEnv } = nextEnv.loadEnvConfig(root, false, quiet, true);
  if (combinedEnv.DATABASE_URL?.trim()) return undefined;
  const folder = path.resolve(root, combinedEnv.DATA_DIR?.trim() || ".data", "pglite");
  return existsSync(folder) ? undefined : folder;
}

/**
 * Creates the embedded database in `folder` (a sibling folder renamed into place once complete, so a start
 * stopped half-way leaves nothing the server would take for a database). Resolves once done; never rejects:
 * should it fail, the server creates the folder itself and reports what went wrong.
 * @param {string} root
 * @param {string} folder
 * @returns {Promise<void>}
 */
export async function createDatabaseFolder(root, folder) {
  const partial = `${folder}.initdb`;
  try {
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(path.dirname(folder), { recursive: true });
    if ((await initdb(root, partial)) === 0 && !existsSync(folder)) renameSync(partial, folder);
  } catch {
    // The server makes the folder itself.
  }
  rmSync(partial, { recursive: true, force: true });
}

/**
 * @param {string} root
 * @param {string} folder
 * @returns {Promise<number>} the exit status
 */
async function initdb(root, folder) {
  const script = path.join(root, "lib/server/database/pglite-initdb.mjs");
  const child = spawn(process.execPath, [script, folder], {
    stdio: "ignore",
  });
  return new Promise((resolve) => {
    child.once("error", () => resolve(1));
    child.once("exit", (code) => resolve(code ?? 1));
  });
}
