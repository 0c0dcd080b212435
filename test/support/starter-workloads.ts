/**
 * The starter clients' fault-certification workloads (docs/guide/starter-clients.md): each client's program, built
 * once where it is compiled, and the workload `certify-client` runs with it. Used by `npm run test:faults` and the
 * integration test that runs each client through every family once.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export const STARTER_LANGUAGES = ["node", "python", "go", "java"] as const;
export type StarterLanguage = (typeof STARTER_LANGUAGES)[number];

function run(command: string, args: string[], cwd: string): void {
  const done = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (done.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${done.stderr}`);
}

const RUNTIMES: Record<StarterLanguage, string> = { node: "node", python: "python3", go: "go", java: "java" };

/** Whether this machine has the language's runtime. */
export function hasRuntime(language: StarterLanguage): boolean {
  return spawnSync("sh", ["-c", `command -v ${RUNTIMES[language]}`]).status === 0;
}

/**
 * The command that runs the client from any working directory; Go and Java are built into `buildDir` first, as
 * the guide does, so that each of a run's few hundred commands starts at once.
 */
export function starterProgram(language: StarterLanguage, buildDir: string): string {
  const dir = path.join(root, "starter-clients", language);
  switch (language) {
    case "node":
      return `node ${dir}/client.mjs`;
    case "python":
      return `python3 ${dir}/client.py`;
    case "go":
      run("go", ["build", "-o", path.join(buildDir, "card-api-go"), "."], dir);
      return path.join(buildDir, "card-api-go");
    case "java":
      run("javac", ["-d", path.join(buildDir, "java"), "CardApiClient.java"], dir);
      return `java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp ${path.join(buildDir, "java")} CardApiClient`;
  }
}

/**
 * The guide's workload: a token, an approved Gift Balance Inquiry under a Request Id of the run's own (`$$`, the
 * shell's process id) and its lookup, a declined one, and a Balance Inquiry: every kind of call a plan can hit.
 */
export function starterWorkload(program: string): string {
  return [
    `${program} token`,
    `${program} gift 6006491000000001 --request-id wl-$$`,
    `${program} lookup wl-$$`,
    `${program} gift 6006491000000027`,
    `${program} balance 6006491000000001`,
  ].join(" && ");
}
