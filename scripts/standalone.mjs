// After `next build`: completes the standalone output (<distDir>/standalone) into the folder the container
// image runs. Next writes a server.js there that starts Next's own HTTP server; ours (scripts/serve.mjs)
// must serve instead (peer-address stamping, forwarded-header stripping, HOSTNAME, graceful shutdown), so it
// is copied in and server.js starts it. Next leaves the static files out (a CDN may serve them): the console
// serves them itself, so <distDir>/static and public/ are copied in too.
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function completeStandalone(distDir = process.env.NEXT_DIST_DIR || ".next") {
  const standalone = path.join(root, distDir, "standalone");
  if (!existsSync(path.join(standalone, "server.js"))) {
    throw new Error(`${standalone}/server.js is missing: next.config.js must build output "standalone".`);
  }
  cpSync(path.join(root, "scripts/serve.mjs"), path.join(standalone, "serve.mjs"));
  cpSync(path.join(root, "scripts/healthcheck.mjs"), path.join(standalone, "healthcheck.mjs"));
  writeFileSync(
    path.join(standalone, "server.js"),
    "// Written by scripts/standalone.mjs: the console's own server (serve.mjs), not Next's generated one.\n" +
      'import("./serve.mjs").catch((error) => {\n  console.error(error);\n  process.exit(1);\n});\n',
  );
  rmSync(path.join(standalone, distDir, "static"), { recursive: true, force: true });
  cpSync(path.join(root, distDir, "static"), path.join(standalone, distDir, "static"), { recursive: true });
  if (existsSync(path.join(root, "public"))) {
    cpSync(path.join(root, "public"), path.join(standalone, "public"), { recursive: true });
  }
  // Also traced by outputFileTracingIncludes; copied here so a build never ships without them.
  cpSync(path.join(root, "db/migrations"), path.join(standalone, "db/migrations"), { recursive: true });
  // The tracer's globs skip dot files (each client's .env.example); what a run leaves behind is not shipped.
  rmSync(path.join(standalone, "starter-clients"), { recursive: true, force: true });
  cpSync(path.join(root, "starter-clients"), path.join(standalone, "starter-clients"), {
    recursive: true,
    filter: (source) => !/(^|[\\/])(\.env|\.card-api-token\.json|__pycache__)$/.test(source),
  });
  await bundleSandbox(path.join(standalone, "sandbox.mjs"));
}

/**
 * `npm run sandbox` for the image: lib/sandbox/server.ts and what it imports (zod, jose) in one file, so the
 * standalone sandbox runs with plain node (`node sandbox.mjs`) and nothing else from the repository.
 */
async function bundleSandbox(outfile) {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [path.join(root, "lib/sandbox/server.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
    legalComments: "none",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await completeStandalone();
  console.log(
    "[standalone] server.js → serve.mjs; healthcheck.mjs, sandbox.mjs, static files, public/, db/migrations and starter-clients/ added",
  );
}
