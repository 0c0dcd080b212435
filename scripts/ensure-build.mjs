// Runs the production build (`next build`, then scripts/standalone.mjs) when there is no build or when a
// source file is newer than it.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { completeStandalone } from "./standalone.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
const sources = ["app", "components", "lib", "public", "db"];
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

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function needsBuild() {
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const newest = Math.max(...[...sources, ...files].map((entry) => newestMtime(path.join(root, entry))));
  return newest > built;
}

/** `next build`, then the standalone folder completed; returns the exit status. */
export async function build(env = process.env) {
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) return result.status ?? 1;
  await completeStandalone(env.NEXT_DIST_DIR || ".next");
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (needsBuild()) {
    console.log("[ensure-build] building the console (next build)…");
    const status = await build();
    if (status !== 0) process.exit(status);
  } else {
    console.log("[ensure-build] production build is current");
  }
}
