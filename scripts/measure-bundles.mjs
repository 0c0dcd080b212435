#!/usr/bin/env node
// First-load JavaScript per page route of a production build, gzipped: what a browser downloads before a
// page is interactive. Run after `next build`; reads the build in NEXT_DIST_DIR (default .next).
//
//   node scripts/measure-bundles.mjs [--max-kb 180] [--json]
//
// A route's first load = the build's root main files (framework, runtime) + the client chunks of every
// layout and of the page (server/app/<entry>_client-reference-manifest.js, `entryJSFiles`). The legacy
// polyfill file is left out: modern browsers skip it (<script nomodule>). Chunks loaded later on demand
// (dynamic import) are not first load. With --max-kb, exits 1 when a route is over the budget.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const distDir = path.resolve(root, process.env.NEXT_DIST_DIR || ".next");
const args = process.argv.slice(2);
const maxKbIndex = args.indexOf("--max-kb");
const maxKb = maxKbIndex >= 0 ? Number(args[maxKbIndex + 1]) : null;
const asJson = args.includes("--json");

function readJson(file) {
  return JSON.parse(readFileSync(path.join(distDir, file), "utf8"));
}

if (!existsSync(path.join(distDir, "BUILD_ID"))) {
  console.error(
    `No production build in ${distDir}: run \`next build\` first (NEXT_DIST_DIR selects the folder).`,
  );
  process.exit(2);
}

const buildManifest = readJson("build-manifest.json");
const routes = readJson("app-path-routes-manifest.json");

/** The `entryJSFiles` of a page's client reference manifest (a script assigning globalThis.__RSC_MANIFEST). */
function entryFiles(entry) {
  const file = path.join(distDir, "server/app", `${entry}_client-reference-manifest.js`);
  if (!existsSync(file)) return null;
  const sandbox = { globalThis: {} };
  sandbox.globalThis = sandbox;
  vm.runInNewContext(readFileSync(file, "utf8"), sandbox);
  const manifest = sandbox.__RSC_MANIFEST?.[entry];
  if (!manifest) return null;
  return Object.values(manifest.entryJSFiles ?? {}).flat();
}

const gzipCache = new Map();
function sizes(file) {
  if (!gzipCache.has(file)) {
    const content = readFileSync(path.join(distDir, file.replace(/^\/_next\//, "")));
    gzipCache.set(file, { raw: content.length, gzip: gzipSync(content).length });
  }
  return gzipCache.get(file);
}

const rootMain = buildManifest.rootMainFiles ?? [];
const results = [];
for (const [entry, route] of Object.entries(routes)) {
  if (!entry.endsWith("/page") || route.startsWith("/_")) continue;
  const pageFiles = entryFiles(entry);
  if (!pageFiles) continue;
  const files = [...new Set([...rootMain, ...pageFiles])];
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const size = sizes(file);
    raw += size.raw;
    gzip += size.gzip;
  }
  results.push({ route, files: files.length, raw, gzip });
}
results.sort((a, b) => a.route.localeCompare(b.route));

const sharedGzip = rootMain.reduce((total, file) => total + sizes(file).gzip, 0);
const kb = (bytes) => (bytes / 1024).toFixed(1);

if (asJson) {
  console.log(JSON.stringify({ distDir, sharedGzip, routes: results }, null, 2));
} else {
  console.log(`First-load JS per route (${path.relative(root, distDir) || distDir}), gzip:`);
  console.log(`${"route".padEnd(14)}${"files".padStart(6)}${"raw KB".padStart(10)}${"gzip KB".padStart(10)}`);
  for (const { route, files, raw, gzip } of results) {
    const over = maxKb !== null && gzip / 1024 > maxKb ? "  over budget" : "";
    console.log(
      `${route.padEnd(14)}${String(files).padStart(6)}${kb(raw).padStart(10)}${kb(gzip).padStart(10)}${over}`,
    );
  }
  console.log(`shared by every route (framework and runtime): ${kb(sharedGzip)} KB gzip`);
}

if (maxKb !== null && results.some((result) => result.gzip / 1024 > maxKb)) {
  console.error(`At least one route is over ${maxKb} KB gzip.`);
  process.exit(1);
}
