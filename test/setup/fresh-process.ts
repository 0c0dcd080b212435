/**
 * Runs in every test file (setupFiles). Test files share their worker's module cache (`isolate: false` in
 * vitest.config.mts: importing the server's modules once per worker rather than once per file was most of a
 * file's cost before its first test), so what one file leaves in the process is cleared after it, as a new
 * process would start without it: the console root it built (closed, and its databases with it), the temporary
 * folders its helpers made, and its changes to process.env.
 */
import { afterAll } from "vitest";
import { removeFileTempDirs } from "@/test/support/temp-dirs";

/** lib/server/root/process.ts keeps the process's root here. */
const ROOT_SLOT = Symbol.for("card-services-console.root");

const envBefore = { ...process.env };

afterAll(async () => {
  const slots = globalThis as Record<symbol, { close(): Promise<void> } | undefined>;
  const root = slots[ROOT_SLOT];
  slots[ROOT_SLOT] = undefined;
  await root?.close();
  removeFileTempDirs();
  for (const key of Object.keys(process.env)) if (!(key in envBefore)) delete process.env[key];
  Object.assign(process.env, envBefore);
});
