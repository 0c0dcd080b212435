// Runs the production build (`next build`, then scripts/standalone.mjs) when there is no build or when a
// source file is newer than it.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { completeStandalone } from "./standalone.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const distDir = () => path.join(root, process.env.NEXT_DIST_DIR || ".next");
// Beside BUILD_ID when the build is `npm start`'s alone (CONSOLE_BUILD_FOR_START, next.config.js): no
// standalone folder, no server source maps. Only `npm start` serves it; any other caller builds again.
const startOnly = () => path.join(distDir(), "start-only-build");
// starter-clients: the standalone output ships a copy of it (scripts/standalone.mjs).
const sources = ["app", "components", "lib", "public", "db", "starter-clients"];
const files = [
  "next.config.js",
  "proxy.ts",
  "instrumentation.ts",
  "tailwind.config.ts",
  "postcss.config.mjs",
  "package.json",
  "tsconfig.json",
  "scripts/serve.mjs",
  "scripts/standalone.mjs",
  "scripts/healthcheck.mjs",
];
/** How often a build with `progress` says it is still working: Next prints nothing while it compiles. */
const PROGRESS_EVERY_MS = 15_000;

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** @param {{ forStart?: boolean }} [options] `forStart`: a build made for `npm start` alone will do. */
export function needsBuild({ forStart = false } = {}) {
  const buildId = path.join(distDir(), "BUILD_ID");
  if (!existsSync(buildId)) return true;
  if (!forStart && existsSync(startOnly())) return true;
  const built = statSync(buildId).mtimeMs;
  const newest = Math.max(...[...sources, ...files].map((entry) => newestMtime(path.join(root, entry))));
  return newest > built;
}

/**
 * `next build`, then the standalone folder completed; resolves to the exit status. `progress` names the
 * caller in a line every PROGRESS_EVERY_MS while Next works, with the time so far.
 */
export async function build(env = process.env, { progress } = {}) {
  const started = Date.now();
  const ticker =
    progress &&
    setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`[${progress}] still building (${seconds} s so far)…`);
    }, PROGRESS_EVERY_MS);
  rmSync(startOnly(), { force: true });
  const child = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const status = await new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
  if (ticker) clearInterval(ticker);
  if (status !== 0) return status;
  if (env.CONSOLE_BUILD_FOR_START === "1") writeFileSync(startOnly(), "made by scripts/start.mjs\n");
  else await completeStandalone(env.NEXT_DIST_DIR || ".next");
  if (progress) console.log(`[${progress}] built in ${Math.round((Date.now() - started) / 1000)} s`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (needsBuild()) {
    console.log("[ensure-build] building the console (next build)…");
    const status = await build(process.env, { progress: "ensure-build" });
    if (status !== 0) process.exit(status);
  } else {
    console.log("[ensure-build] production build is current");
  }
}
