// `npm start`: builds when there is no current build, then serves the console (scripts/serve.mjs: PORT,
// HOSTNAME, .env files loaded as Next does).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, needsBuild } from "./ensure-build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

if (needsBuild()) {
  console.log("[start] no current production build: running next build first…");
  const status = await build(env);
  if (status !== 0) process.exit(status);
}

const server = spawn(process.execPath, [path.join(root, "scripts/serve.mjs")], {
  cwd: root,
  stdio: "inherit",
  env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
