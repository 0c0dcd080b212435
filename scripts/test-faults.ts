/**
 * npm run test:faults: the full seeded fault certification (docs/design.md §14) of every starter client whose
 * runtime is here, in parallel, each against a console of its own, with short timeouts: the CI step after
 * `npm test`, whose own tests run each client through every family once. A client passes when
 * `certify-client` exits 0 (every plan passed). FAULT_CLIENTS=node,python narrows it; FAULT_PLANS and
 * FAULT_SEED change the run.
 */
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";

const root = path.resolve(import.meta.dirname, "..");
const CARD = "6006491000000001";
const GO_BINARY = path.join(os.tmpdir(), "fault-run-go", "card-api-client");

/** Each starter client's program, as its README runs it, from its own folder (`dir`), in any working directory. */
const PROGRAMS: Record<string, { runtime: string; program: (dir: string) => string }> = {
  node: { runtime: "node", program: (dir) => `node ${dir}/client.mjs` },
  python: { runtime: "python3", program: (dir) => `python3 ${dir}/client.py` },
  // Built once before the run (prepare), so that each plan's run starts at once.
  go: { runtime: "go", program: () => GO_BINARY },
  java: { runtime: "java", program: (dir) => `java ${dir}/CardApiClient.java` },
};

/** The workload: a token, a Balance Inquiry and a Gift Balance Inquiry, each a run of the client. */
function workload(program: string): string {
  return [`${program} token`, `${program} balance ${CARD}`, `${program} gift ${CARD}`].join(" && ");
}

function prepare(name: string, dir: string): void {
  if (name !== "go") return;
  const built = spawnSync("go", ["build", "-o", GO_BINARY, "."], { cwd: dir, stdio: "inherit" });
  if (built.status !== 0) throw new Error("go build failed");
}

function available(runtime: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${runtime}`]).status === 0;
}

function certify(
  server: ConsoleServer,
  name: string,
): Promise<{ name: string; code: number | null; output: string; seconds: number }> {
  const dir = path.join(root, "starter-clients", name);
  prepare(name, dir);
  const started = Date.now();
  const args = [
    "--import",
    "tsx",
    "scripts/certify-client.ts",
    "--console",
    server.url,
    // Each run in a fresh empty directory: no token cache carried from one plan to the next.
    "--command",
    workload(PROGRAMS[name]!.program(dir)),
    "--plans",
    process.env.FAULT_PLANS ?? "40",
    "--seed",
    process.env.FAULT_SEED ?? "1",
    "--timeout-ms",
    "1000",
    "--time-limit",
    "30",
    "--out",
    path.join(root, "evidence", "faults"),
    "--junit",
    path.join(root, "evidence", "faults", `${name}.junit.xml`),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ name, code, output, seconds: (Date.now() - started) / 1000 }));
  });
}

async function main(): Promise<number> {
  const wanted = (process.env.FAULT_CLIENTS ?? Object.keys(PROGRAMS).join(",")).split(",");
  const names = wanted.filter((name) => PROGRAMS[name] && available(PROGRAMS[name].runtime));
  const skipped = wanted.filter((name) => !names.includes(name));
  const servers = await Promise.all(names.map(() => startConsole()));
  try {
    const results = await Promise.all(names.map((name, index) => certify(servers[index]!, name)));
    for (const result of results) {
      console.log(`\n===== ${result.name}: exit ${result.code} in ${result.seconds.toFixed(0)} s =====`);
      console.log(result.output.trim().split("\n").slice(-30).join("\n"));
    }
    const failed = results.filter((result) => result.code !== 0).length;
    if (skipped.length > 0) console.log(`\nskipped (no runtime or no workload): ${skipped.join(", ")}`);
    console.log(
      `\n${results.length - failed} passed, ${failed} failed${skipped.length ? `, ${skipped.length} skipped` : ""}`,
    );
    return failed === 0 ? 0 : 1;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
