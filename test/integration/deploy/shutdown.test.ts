/**
 * Graceful shutdown of the console's server (scripts/serve.mjs, as `npm start` and the image run it): on SIGTERM
 * it refuses new connections at once, lets a call in flight finish, closes the database and exits 0; a call
 * that outlasts SHUTDOWN_GRACE_MS is cut, and the process still exits 0. The upstream is a sandbox whose
 * Balance Inquiry waits until the test lets it answer, so "in flight" is a fact, not a timing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { createSandbox, type Sandbox } from "@/lib/sandbox";
import { OPERATION_SPECS } from "@/lib/shared/operations";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { freePort } from "../../support/console-server";
import { seedDataDir } from "../../support/pglite-template";
import { startServerProcess, type ServerProcess } from "../../support/server-process";
import { ConsoleClient, CONSOLE_TEST_SESSION_SECRET } from "@/test/support/http-client";

const root = path.resolve(__dirname, "../../..");
const CARD = { card_number: "6006491000000001", location_id: "store-1" };

/** A sandbox whose Balance Inquiries wait at a gate: `arrived` resolves when one reaches it. */
function gatedSandbox() {
  const real = createSandbox();
  let arrive = () => {};
  let open = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const gate = new Promise<void>((resolve) => (open = resolve));
  const sandbox: Sandbox = {
    ...real,
    handle: async (request) => {
      if (new URL(request.url).pathname === OPERATION_SPECS.balance_inquiry.path) {
        arrive();
        await gate;
      }
      return real.handle(request);
    },
  };
  return { sandbox, arrived, open };
}

async function startConsoleAgainst(upstream: string, dataDir: string, extra: Record<string, string> = {}) {
  const port = await freePort();
  // A copy of the run's migrated database: what is under test is closing it, not creating it.
  seedDataDir(dataDir);
  return startServerProcess({
    script: path.join(root, "scripts/serve.mjs"),
    cwd: root,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      SESSION_SECRET: CONSOLE_TEST_SESSION_SECRET,
      EMBEDDED_SANDBOX: "off",
      CARD_API_AUTH_URL: upstream,
      CARD_API_SANDBOX_URL: upstream,
      CARD_API_CLIENT_ID: "demo-client",
      CARD_API_CLIENT_SECRET: "demo-secret",
      ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
      ...extra,
    },
    url: `http://127.0.0.1:${port}`,
    probeUrl: `http://127.0.0.1:${port}/api/health`,
  });
}

describe("SIGTERM", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "shutdown-data-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function setUp(extra: Record<string, string> = {}) {
    const gated = gatedSandbox();
    const upstream: SandboxServer = await startSandboxServer({
      port: await freePort(),
      sandbox: gated.sandbox,
    });
    const server: ServerProcess = await startConsoleAgainst(
      upstream.url,
      path.join(dataDir, String(Date.now())),
      extra,
    );
    cleanups.push(
      () => upstream.close(),
      () => server.stop(),
    );
    // Opens (and migrates) the database, so that there is one to close.
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
    return { gated, server };
  }

  test("refuses new connections, finishes the call in flight, closes the database, exits 0", async () => {
    const { gated, server } = await setUp();
    const client = new ConsoleClient(server.url);
    const inFlight = client.json<ExchangeRecord>("POST", "/api/inquiries/balance", { body: CARD });
    await gated.arrived;

    server.child.kill("SIGTERM");
    await server.waitForLog(/shutting down/);
    expect(server.logs()).toMatch(/"in_flight":1/);
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();

    gated.open();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.response.status).toBe(200);
    expect(answered.body.response.body).toMatchObject({ data: { balances: { gift: "25.00" } } });

    expect(await server.exited).toBe(0);
    expect(server.logs()).toMatch(/database closed/);
  });

  test("a call that outlasts SHUTDOWN_GRACE_MS is cut, and the process still exits 0", async () => {
    const { gated, server } = await setUp({ SHUTDOWN_GRACE_MS: "500" });
    const client = new ConsoleClient(server.url);
    const inFlight = client.json("POST", "/api/inquiries/balance", { body: CARD }).then(
      () => "answered",
      () => "cut",
    );
    await gated.arrived;
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(await inFlight).toBe("cut");
    expect(server.logs()).toMatch(/1 call\(s\) still running after 500 ms/);
    gated.open();
  });
});
