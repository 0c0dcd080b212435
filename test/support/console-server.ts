/**
 * Starts the production build of the console (scripts/serve.mjs, as `npm start` does) on a free port with the given environment,
 * capturing its log lines. Used by integration and browser tests. Requires `.next/BUILD_ID`
 * (`node scripts/ensure-build.mjs` runs before those projects in `npm test`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { seedDataDir } from "./pglite-template";
import { provided, recordStart } from "./shared";
import { SHARED_CONSOLE_PROFILES, type SharedConsoleProfile } from "./shared-consoles";

const root = path.resolve(__dirname, "../..");

export interface ConsoleServer {
  /** e.g. http://localhost:41234 (no trailing slash). */
  url: string;
  port: number;
  /** Every line the server wrote to stdout and stderr so far. */
  logs: () => string;
  stop: () => Promise<void>;
}

import { freePort } from "@/scripts/free-port.mjs";

export { freePort };

const DEFAULT_TEST_ENV: Record<string, string> = {
  SESSION_SECRET: "test-session-secret-that-is-at-least-32-characters-long",
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
};

/**
 * V8 flags of a test console: WebAssembly (the embedded database) stays on its baseline compiler. A test console
 * lives seconds to minutes, too short to earn back the optimizing compiler's work on PGlite's module; measured
 * over five integration files, a tenth less CPU for the same tests.
 */
const TEST_SERVER_FLAGS = ["--liftoff-only"];

export interface StartOptions {
  /** Also append the server's output to this file (a shared console's, read by the files using it). */
  logFile?: string;
}

/** What scripts/serve.mjs prints once its server listens. */
const LISTENING_LINE = "Card Services Console listening on ";

/**
 * Resolves when the child says it listens, not when the port answers: the answer could come from another server
 * that took the port first, while this child fails to listen and exits.
 */
function listening(child: ChildProcess, output: () => string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      clearTimeout(timer);
      child.off("close", onExit);
      child.stdout?.off("data", onData);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => settle(new Error("did not start within 60 s")), 60_000);
    const onExit = () => settle(new Error("exited early"));
    // Listeners run in the order they were added: the output was collected before this reads it.
    const onData = () => {
      if (output().includes(LISTENING_LINE)) settle();
    };
    // "close", not "exit": by then the child's last words (why it could not listen) are collected.
    child.once("close", onExit);
    child.stdout?.on("data", onData);
  });
}

export async function startConsole(
  env: Record<string, string | undefined> = {},
  { logFile }: StartOptions = {},
): Promise<ConsoleServer> {
  const distDir = env.NEXT_DIST_DIR ?? process.env.NEXT_DIST_DIR ?? ".next";
  if (!existsSync(path.join(root, distDir, "BUILD_ID"))) {
    throw new Error("No production build: run `node scripts/ensure-build.mjs` (npm test does) first.");
  }
  // A caller that must know the address before the start (an OIDC redirect URI) passes PORT.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // PGlite is single-process: each console gets its own embedded database, removed when it stops.
  const dataDir = env.DATA_DIR ? undefined : mkdtempSync(path.join(os.tmpdir(), "console-data-"));
  // A copy of the run's migrated template spares the server PGlite's initdb and the migrations.
  if (dataDir) seedDataDir(dataDir);
  const removeDataDir = () => dataDir && rmSync(dataDir, { recursive: true, force: true });
  const childEnv: NodeJS.ProcessEnv = { NODE_ENV: "production" };
  for (const [key, value] of Object.entries({
    ...process.env,
    ...DEFAULT_TEST_ENV,
    ...env,
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    PORT: String(port),
  })) {
    if (value !== undefined) childEnv[key] = value;
  }
  recordStart("console");
  const child: ChildProcess = spawn(
    process.execPath,
    [...TEST_SERVER_FLAGS, path.join(root, "scripts/serve.mjs")],
    {
      cwd: root,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);

  const url = `http://localhost:${port}`;
  try {
    await listening(child, () => output);
    // One answer from it before the caller's first: what it logged while starting has been read by then.
    await (await fetch(`${url}/`, { redirect: "manual" })).arrayBuffer();
  } catch (error) {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      child.once("exit", removeDataDir);
    } else removeDataDir();
    throw new Error(`console server on port ${port} ${(error as Error).message}:\n${output}`);
  }

  return {
    url,
    port,
    logs: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          removeDataDir();
          return resolve();
        }
        child.once("exit", () => {
          removeDataDir();
          resolve();
        });
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}

/**
 * The run's console of `profile` (test/support/shared-consoles.ts; test/setup/console.ts starts one of each for
 * the integration and browser projects), shared by every file that asks: for tests that need no configuration
 * of their own and leave no state another file could see (their own browser context, their own session).
 * `stop()` leaves it running; `logs()` reads everything it wrote so far, other files' requests included.
 * Without that global setup (another project, or outside Vitest) this is a console of the caller's own, as
 * `startConsole(profile's environment)` gives.
 */
export async function sharedConsole(profile: SharedConsoleProfile = "default"): Promise<ConsoleServer> {
  const shared = provided("sharedConsoles")?.[profile];
  if (!shared) return startConsole(SHARED_CONSOLE_PROFILES[profile]);
  const { url, logFile } = shared;
  return {
    url,
    port: Number(new URL(url).port),
    logs: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
    stop: async () => {},
  };
}
