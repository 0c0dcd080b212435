/** Runs the worked cURL example that the sandbox page shows (the one generator's), against a real sandbox server. */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { workedExample } from "@/lib/sandbox/docs";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";

const run = promisify(execFile);
const hasTools = ["curl", "sed", "bash"].every((tool) => {
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

  async function runExample(env: Record<string, string>) {
    const { token, inquiry } = workedExample("shell", server.url, "custom-secret-for-curl");
    expect(token).toBeNull();
    const script = `set -euo pipefail\n${inquiry}\n`;
    const { stdout } = await run("bash", ["-c", script], { env: { ...process.env, ...env } });
    const [head = "", body = ""] = stdout.split(/\r?\n\r?\n/);
    return { head, body: JSON.parse(body) as { data: Record<string, unknown> } };
  }

  it("gets a token, then a 201 approved Gift Balance Inquiry of 25.00", async () => {
    const { head, body } = await runExample({
      CLIENT_ID: "demo-client",
      CLIENT_SECRET: "custom-secret-for-curl",
    });
    expect(head).toMatch(/^HTTP\/1\.1 201/);
    expect(body.data).toMatchObject({
      response_status: "approved",
      balance: "25.00",
      card_number: "6006491000000001",
    });
    expect(sandbox.stats().transactions).toBe(1);
  });

  it("stops with a message when CLIENT_SECRET is not set", async () => {
    // On stderr, by the shell's own check: nothing was sent without it.
    const before = sandbox.stats().tokenRequests;
    await expect(runExample({ CLIENT_ID: "demo-client", CLIENT_SECRET: "" })).rejects.toMatchObject({
      stderr: expect.stringMatching(/CLIENT_SECRET: Set CLIENT_SECRET in the environment first/),
    });
    expect(sandbox.stats().tokenRequests).toBe(before);
  });
});
