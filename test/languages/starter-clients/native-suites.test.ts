/**
 * Each starter client's own test suite, in its own language, as an integrator runs it from the client's folder:
 * `node --test`, `python3 -m unittest`, `go test ./...`, and CardApiClientTest run by `java` with no framework.
 * Every suite drives its client through each scenario of starter-clients/testing/scenarios.json against
 * fault-server.mjs (5xx before and after the inquiry was recorded, resets, cut and HTML bodies, late headers, a
 * dripping body, 401, 403, 429 in every form, a failing token endpoint, a token of 1 s, unknown fields, lookups
 * answering 404 and 500, a redirect). A language whose toolchain is missing is skipped, never passed.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { SHORT_RUN_JVM_FLAGS } from "@/test/support/jvm";
import { runToEnd, type Finished } from "@/test/support/run-to-end";

const ROOT = path.resolve(__dirname, "../../..");
const CLIENTS = path.join(ROOT, "starter-clients");
const SCENARIOS = (
  JSON.parse(readFileSync(path.join(CLIENTS, "testing/scenarios.json"), "utf8")) as { scenarios: unknown[] }
).scenarios.length;
// Each suite sleeps through its faults (backoffs, Retry-After, timeouts) for about 30 s; more on a busy box.
const SUITE_TIMEOUT_MS = 300_000;

const has = (tool: string, flag: string) => spawnSync(tool, [flag]).status === 0;
const scratch = mkdtempSync(path.join(os.tmpdir(), "starter-native-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Finished> {
  return runToEnd(command, args, {
    cwd,
    // No bytecode or build output lands in the client's folder: the folder is what a zip ships.
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", GOFLAGS: "", ...env },
  });
}

const folderFiles = (language: string) => readdirSync(path.join(CLIENTS, language)).sort();

describe.concurrent("each starter client's own suite passes every fault scenario", () => {
  test("node --test", { timeout: SUITE_TIMEOUT_MS }, async () => {
    const ran = await run(process.execPath, ["--test"], path.join(CLIENTS, "node"));
    expect(ran.output).toMatch(new RegExp(`# pass ${SCENARIOS + 1}\\b`));
    expect(ran.code, ran.output).toBe(0);
  });

  test.skipIf(!has("python3", "--version"))(
    "python3 -m unittest",
    { timeout: SUITE_TIMEOUT_MS },
    async () => {
      const before = folderFiles("python");
      const ran = await run("python3", ["-m", "unittest", "-v"], path.join(CLIENTS, "python"));
      expect(ran.output).toMatch(new RegExp(`Ran ${SCENARIOS + 3} tests`));
      expect(ran.output).not.toMatch(/skipped/);
      expect(ran.code, ran.output).toBe(0);
      expect(folderFiles("python")).toEqual(before);
    },
  );

  test.skipIf(!has("go", "version"))("go test ./...", { timeout: SUITE_TIMEOUT_MS }, async () => {
    const ran = await run("go", ["test", "-count=1", "-v", "./..."], path.join(CLIENTS, "go"));
    expect(ran.output.match(/^ {4}--- PASS: TestFaultScenarios\//gm)).toHaveLength(SCENARIOS);
    expect(ran.code, ran.output).toBe(0);
  });

  test.skipIf(!has("javac", "-version"))(
    "java CardApiClientTest",
    { timeout: SUITE_TIMEOUT_MS },
    async () => {
      const folder = path.join(CLIENTS, "java");
      const classes = path.join(scratch, "java");
      const javac = SHORT_RUN_JVM_FLAGS.map((flag) => `-J${flag}`);
      const compiled = await run(
        "javac",
        [...javac, "-d", classes, "CardApiClient.java", "CardApiClientTest.java"],
        folder,
      );
      expect(compiled.output).toBe("");
      const ran = await run("java", [...SHORT_RUN_JVM_FLAGS, "-cp", classes, "CardApiClientTest"], folder);
      expect(ran.output.match(/^ {2}ok$/gm)).toHaveLength(SCENARIOS);
      expect(ran.output).toMatch(/^OK$/m);
      expect(ran.code, ran.output).toBe(0);
    },
  );
});

describe("the proof can fail", () => {
  test("a Node client that resends an inquiry of unknown outcome under a new Request Id fails its own suite", async () => {
    const copy = path.join(scratch, "mutant");
    cpSync(path.join(CLIENTS, "node"), path.join(copy, "node"), { recursive: true });
    cpSync(path.join(CLIENTS, "testing"), path.join(copy, "testing"), { recursive: true });
    const file = path.join(copy, "node/client.mjs");
    const source = readFileSync(file, "utf8");
    const mutant = source.replace(
      'this.call("POST", GIFT_PATH, { body, requestId })',
      'this.call("POST", GIFT_PATH, { body, requestId: sends > 1 ? randomUUID() : requestId })',
    );
    expect(mutant).not.toBe(source);
    writeFileSync(file, mutant);
    const ran = await run(
      process.execPath,
      ["--test", "--test-name-pattern=before the inquiry was recorded"],
      path.join(copy, "node"),
    );
    expect(ran.output).toMatch(/# fail [1-9]/);
    expect(ran.code).not.toBe(0);
  }, 120_000);
});
