// `npm start`: builds when there is no current build, then serves the console (scripts/serve.mjs: PORT,
// HOSTNAME, .env files loaded as Next does), with the server's Node options (scripts/server-node-options.mjs).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabaseFolder, missingDatabaseFolder } from "./embedded-database.mjs";
import { build, needsBuild } from "./ensure-build.mjs";
import { serverNodeFlags } from "./server-node-options.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

if (needsBuild({ forStart: true })) {
  console.log(
    "[start] First start: building the console once (about half a minute; more on a busy machine). " +
      "Later starts skip this until a source file changes. Next lists what this build leaves out " +
      "(server minification and source maps, the build cache) as experiments marked ⨯.",
  );
  // Starting serves the code as it is: type errors are `npm run typecheck`'s and `npm test`'s to report, and
  // the build's own check would add half a minute to every first start; so would writing Turbopack's build
  // cache, which only later builds read. The standalone folder, minifying the server's code and its source
  // maps would cost 7 s more, for nothing this server uses (next.config.js).
  const buildEnv = {
    ...env,
    CONSOLE_BUILD_TYPES_CHECKED: "1",
    CONSOLE_BUILD_CACHE: "off",
    CONSOLE_BUILD_FOR_START: "1",
  };
  const folder = missingDatabaseFolder(root);
  const database = folder ? createDatabaseFolder(root, folder) : Promise.resolve();
  const status = await build(buildEnv, { progress: "start" });
  await database;
  if (status !== 0) process.exit(status);
}

const server = spawn(process.execPath, [...serverNodeFlags(env), path.join(root, "scripts/serve.mjs")], {
  cwd: root,
  stdio: "inherit",
  env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
