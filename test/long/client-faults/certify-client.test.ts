/**
 * `npm run certify-client` end to end (docs/design.md §14) against the run's shared console: a correct client passes
 * every fault family once, and a flawed client, breaking one duty, is caught with a shrunk plan of at most two
 * faults and the line that replays it. The bundle it writes verifies. The other 28 flaws of the corpus
 * (test/fixtures/fault-clients/flaws.ts) are `npm run test:faults`'s, the CI step after `npm test`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, test } from "vitest";
import { parsePlanCode } from "@/lib/shared/fault-families";
import { sharedConsole, type ConsoleServer } from "../../support/console-server";
import { fileTempDir } from "../../support/temp-dirs";
import { runToEnd } from "@/test/support/run-to-end";

const root = path.resolve(import.meta.dirname, "../../..");
const CLIENT = path.join(root, "test/fixtures/fault-clients/reference-client.mjs");
let scratch: string;
let server: ConsoleServer;

beforeAll(async () => {
  scratch = fileTempDir("certify-client-");
  server = await sharedConsole();
});

interface CliRun {
  code: number | null;
  output: string;
  out: string;
}

async function certifyClient(args: string[]): Promise<CliRun> {
  const out = mkdtempSync(path.join(scratch, "run-"));
  const finished = await runToEnd(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/certify-client.ts",
      "--console",
      server.url,
      "--out",
      out,
      "--timeout-ms",
      "1000",
      ...args,
    ],
    { cwd: root },
  );
  return { ...finished, out };
}

/** The smallest plans the report names, with their checks. */
function reproducers(output: string): { checks: string; code: string }[] {
  return [...output.matchAll(/^FAIL (\S[^:]*): smallest plan (\S+) /gm)].map((match) => ({
    checks: match[1]!,
    code: match[2]!,
  }));
}

test("a client that keeps every duty passes every family once, and its bundle says client-faults", async () => {
  const junit = path.join(scratch, "faults.xml");
  const run = await certifyClient(["--command", `node ${CLIENT}`, "--plans", "0", "--junit", junit]);
  expect(run.output).toMatch(/^\[0\/0\] pass baseline/m);
  expect(run.output).not.toMatch(/Not applicable/);
  expect(run.output, run.output).toMatch(/^PASS: 35 plan\(s\) after the baseline, 0 failed/m);
  expect(run.code).toBe(0);
  const xml = readFileSync(junit, "utf8");
  expect(xml).toContain('name="reset_after_commit"');
  expect(xml).toContain('name="CLI-NO-DUPLICATE-WRITE"');
  expect(xml).not.toContain("<failure");
  const [bundle] = readdirSync(run.out);
  expect(bundle).toMatch(/^client-faults-cert-.*\.zip$/);
  const manifest = JSON.parse(
    strFromU8(unzipSync(readFileSync(path.join(run.out, bundle!)))["manifest.json"]!),
  ) as { kind: string; plans: { code: string; passed: boolean }[] };
  expect(manifest.kind).toBe("client-faults");
  expect(manifest.plans).toHaveLength(36);
  expect(manifest.plans.every((plan) => plan.passed)).toBe(true);
  const verify = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/verify-evidence.ts",
      path.join(run.out, bundle!),
    ],
    { cwd: root },
  );
  let said = "";
  verify.stdout.on("data", (chunk: Buffer) => (said += chunk.toString()));
  const status = await new Promise((resolve) => verify.on("close", resolve));
  expect(status, said).toBe(0);
});

describe.each([
  ["new-id-after-500", "status_500_after_commit,reset_after_commit,status_503", "CLI-NO-DUPLICATE-WRITE"],
])("the flawed client %s", (flaw, families, check) => {
  test(`is caught by ${check} with a plan of at most 2 faults, and the replay line reproduces it`, async () => {
    const run = await certifyClient([
      "--command",
      `node ${CLIENT} --flaw ${flaw}`,
      "--families",
      families,
      "--plans",
      "4",
      "--seed",
      "42",
    ]);
    expect(run.code, run.output).toBe(1);
    const found = reproducers(run.output).filter((item) => item.checks.includes(check));
    expect(found.length, run.output).toBeGreaterThan(0);
    for (const item of found) {
      const parsed = parsePlanCode(item.code);
      expect(parsed.ok && parsed.faults.length).toBeLessThanOrEqual(2);
    }
    expect(run.output).toMatch(/replay: npm run certify-client -- .* --plan '/);
    const replay = await certifyClient([
      "--command",
      `node ${CLIENT} --flaw ${flaw}`,
      "--plan",
      found[0]!.code,
    ]);
    expect(replay.code, replay.output).toBe(1);
    expect(replay.output).toContain(check);
  });
});

test("an unknown family in --plan or --families is a usage error", async () => {
  const run = await certifyClient(["--command", "true", "--plan", "gift#1:no_such_fault"]);
  expect(run.code).toBe(2);
  expect(run.output).toMatch(/no fault family "no_such_fault"/);
  expect((await certifyClient(["--command", "true", "--families", "nope"])).code).toBe(2);
});
