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

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Lets parallel builds (tests, benchmarks) use separate output folders; `.next` by default.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  poweredByHeader: false,
  // Loaded from node_modules at runtime rather than bundled: pino spawns worker threads, PGlite loads its wasm and data files.
  serverExternalPackages: ["pino", "@electric-sql/pglite"],
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

module.exports = nextConfig;
