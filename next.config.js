// @ts-check

/**
 * Security headers applied to every response; the console never embeds third-party content. The
 * Content-Security-Policy (with its per-request nonce), Cross-Origin-Opener-Policy and HSTS are set by
 * proxy.ts.
 */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

/**
 * A build for `npm start` alone (scripts/start.mjs): it serves from the repository, so it needs no standalone
 * folder, and its server chunks are neither minified nor given source maps: a quarter of the build's CPU (10
 * of 42 s; 5 s of its 23 on 2 cores) and the standalone copy's 2.5 s, none of which buys that server anything
 * (it reads its code once from disk and runs without --enable-source-maps). Any other caller of
 * scripts/ensure-build.mjs (tests, the bench) builds again in full, and `npm run build` is always full.
 */
const forStartOnly = process.env.CONSOLE_BUILD_FOR_START === "1";
const isCi = ["1", "true"].includes(String(process.env.CI).toLowerCase());

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Lets parallel builds (tests, benchmarks) use separate output folders; `.next` by default.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  // `npm test` type-checks the whole tree with tsc (route types included) before it builds; the build need not
  // check it a second time. `npm start` builds to serve, not to check (scripts/start.mjs). Any other build checks
  // its types as usual.
  typescript: { ignoreBuildErrors: process.env.CONSOLE_BUILD_TYPES_CHECKED === "1" },
  poweredByHeader: false,
  // Loaded from node_modules at runtime rather than bundled: pino spawns worker threads (pino-pretty goes with it),
  // PGlite loads its wasm and data files.
  serverExternalPackages: ["pino", "pino-pretty", "@electric-sql/pglite"],
  // A self-contained server folder (<distDir>/standalone) for the container image; scripts/standalone.mjs
  // then puts our own server (scripts/serve.mjs) and the static files in it.
  output: forStartOnly ? undefined : "standalone",
  // Read at runtime from files, so not found by tracing imports: the SQL migrations (lib/server/database/migrate.ts) and
  // PGlite's wasm and data files (loaded by URL relative to its module).
  // The evidence reader's worker (lib/server/certification/evidence/read-bundle.ts) and the embedded database's
  // initdb (lib/server/database/connection.ts) are started from their files. The starter clients' folders are
  // zipped from their files (lib/server/starter-clients).
  outputFileTracingIncludes: {
    "/**": [
      "./db/migrations/**/*",
      "./node_modules/@electric-sql/pglite/dist/*.{wasm,data}",
      "./lib/server/certification/evidence/unzip-worker.mjs",
      "./lib/server/database/pglite-initdb.mjs",
      "./lib/server/database/pglite-settings.mjs",
      "./starter-clients/**/*",
    ],
  },
  experimental: {
    // Route modules load on their first request rather than all at start: a console that serves a few pages
    // and routes keeps the rest out of memory (about 10 MB less resident right after start).
    preloadEntriesOnStart: false,
    // Because proxy.ts exists, Next buffers every request body for it and silently cuts it at this size
    // (10 MB by default): a larger evidence bundle would reach the verify route truncated and read as "not
    // a zip". One MiB above the route's own 20 MiB bound (MAX_BUNDLE_BYTES), so a body past 20 MiB still
    // arrives longer than the bound and is answered 413, not misread.
    proxyClientMaxBodySize: 21 * 1024 * 1024,
    // Turbopack's build cache makes rebuilds quicker (tests, the bench after a change), but writing it costs a
    // first build a fifth of its CPU (49 → 40 s on 2 cores, 27 → 22 s wall): off where no rebuild follows it,
    // `npm start` (CONSOLE_BUILD_CACHE=off) and CI (a fresh clone builds once).
    turbopackFileSystemCacheForBuild: process.env.CONSOLE_BUILD_CACHE !== "off" && !isCi,
    ...(forStartOnly ? { serverMinification: false, serverSourceMaps: false } : {}),
  },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // proxy.ts does not run for /api: JSON answers get a fixed policy that allows nothing (no nonce needed).
      {
        source: "/api/:path*",
        headers: [
          {
            key: "Content-Security-Policy",
            value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
          },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

module.exports = nextConfig;
