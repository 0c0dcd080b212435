/**
 * Every starter client through every fault family once (docs/design.md §14, §12): `npm run certify-client` with
 * the workload docs/guide/starter-clients.md gives, `--plans 0` (the baseline, then each family on the first call
 * it applies to), against one console of this file's own. The full seeded run with random plans, and the
 * flawed-client corpus, are `npm run test:faults`. A language whose runtime is missing is skipped, never passed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FAULT_FAMILIES } from "@/lib/shared/fault-families";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import {
  STARTER_LANGUAGES,
  hasRuntime,
  starterProgram,
  starterWorkload,
} from "../../support/starter-workloads";

const root = path.resolve(import.meta.dirname, "../../..");
const scratch = mkdtempSync(path.join(os.tmpdir(), "starter-faults-"));
// 36 runs of five commands, a few of them sleeping through a Retry-After or a timeout: about a minute alone.
const RUN_TIMEOUT_MS = 480_000;
let server: ConsoleServer;

beforeAll(async () => {
  server = await startConsole();
});
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function certifyClient(command: string): Promise<{ code: number | null; output: string }> {
  const args = [
    ...["--import", "tsx", "scripts/certify-client.ts", "--console", server.url, "--command", command],
    ...["--plans", "0", "--timeout-ms", "1000", "--time-limit", "20", "--out", scratch],
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe.concurrent("each starter client under every fault family once", () => {
  for (const language of STARTER_LANGUAGES) {
    const skip = !hasRuntime(language);
    test.skipIf(skip)(
      `${language}${skip ? " (no runtime here)" : ""}: the baseline and every family pass`,
      { timeout: RUN_TIMEOUT_MS },
      async () => {
        const run = await certifyClient(starterWorkload(starterProgram(language, scratch)));
        expect(run.output).toMatch(/^\[0\/0\] pass baseline/m);
        // The workload makes every kind of call, so no family is left out.
        expect(run.output).not.toMatch(/Not applicable/);
        expect(run.output, run.output).toMatch(
          new RegExp(`^PASS: ${FAULT_FAMILIES.length} plan\\(s\\) after the baseline, 0 failed`, "m"),
        );
        expect(run.code).toBe(0);
      },
    );
  }
});
