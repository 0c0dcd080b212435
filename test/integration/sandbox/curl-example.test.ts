/** Runs the worked curl example that the sandbox page (and README) shows, against a real sandbox server. */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { curlGiftStep, curlTokenStep } from "@/lib/sandbox/docs";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";

const run = promisify(execFile);
const hasTools = ["curl", "jq", "bash"].every((tool) => {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
});

describe.skipIf(!hasTools)("the sandbox page's curl example", () => {
  let server: SandboxServer;
  const sandbox = createSandbox({ demoSecret: "custom-secret-for-curl" });
  beforeAll(async () => {
    server = await startSandboxServer({ port: 0, sandbox });
  });
  afterAll(async () => {
    await server.close();
  });

  async function runExample(
    secret: Parameters<typeof curlTokenStep>[0]["secret"],
    env: Record<string, string>,
  ) {
    const script = `set -euo pipefail\n${curlTokenStep({ baseUrl: server.url, secret })}\n${curlGiftStep()}\n`;
    const { stdout } = await run("bash", ["-c", script], { env: { ...process.env, ...env } });
    const [head = "", body = ""] = stdout.split(/\r?\n\r?\n/);
    return { head, body: JSON.parse(body) as { data: Record<string, unknown> } };
  }

  it("gets a token, then a 201 approved Gift Balance Inquiry of 25.00", async () => {
    const { head, body } = await runExample({ literal: "custom-secret-for-curl" }, {});
    expect(head).toMatch(/^HTTP\/1\.1 201/);
    expect(body.data).toMatchObject({
      response_status: "approved",
      balance: "25.00",
      card_number: "6006491000000001",
    });
    expect(sandbox.stats().transactions).toBe(1);
  });

  it("works with the secret taken from SANDBOX_DEMO_SECRET in the shell", async () => {
    const { head } = await runExample(
      { environmentVariable: "SANDBOX_DEMO_SECRET" },
      { SANDBOX_DEMO_SECRET: "custom-secret-for-curl" },
    );
    expect(head).toMatch(/^HTTP\/1\.1 201/);
  });
});
