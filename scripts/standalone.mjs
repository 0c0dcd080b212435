// After `next build`: completes the standalone output (<distDir>/standalone) into the folder the container
// image runs. Next writes a server.js there that starts Next's own HTTP server; ours (scripts/serve.mjs)
// must serve instead (peer-address stamping, forwarded-header stripping, HOSTNAME, graceful shutdown), so it
// is copied in and server.js starts it. Next leaves the static files out (a CDN may serve them): the console
// serves them itself, so <distDir>/static and public/ are copied in too.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { STARTER_CLIENT_FILES, STARTER_CLIENTS_SHARED_FILES } from "../lib/server/starter-clients/files.mjs";

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
  copyStarterClients(path.join(standalone, "starter-clients"));
  await bundleSandbox(path.join(standalone, "sandbox.mjs"));
}

/**
 * The starter clients, exactly the files lib/server/starter-clients/files.mjs lists (what the tracer copied is
 * replaced: its globs skip dot files such as .env.example, and take whatever a run left in the folders). A listed
 * file that is missing stops the build.
 */
export function copyStarterClients(target, source = path.join(root, "starter-clients")) {
  rmSync(target, { recursive: true, force: true });
  const listed = [
    ...STARTER_CLIENTS_SHARED_FILES,
    ...Object.entries(STARTER_CLIENT_FILES).flatMap(([language, files]) =>
      files.map((file) => `${language}/${file}`),
    ),
  ];
  for (const file of listed) {
    if (!existsSync(path.join(source, file))) {
      throw new Error(
        `starter-clients/${file} is listed in lib/server/starter-clients/files.mjs but missing.`,
      );
    }
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    cpSync(path.join(source, file), path.join(target, file));
  }
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
