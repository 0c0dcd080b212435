/**
 * Monitors over HTTP (docs/design.md §13): a console whose `sandbox` environment is an upstream this test controls
 * (127.0.0.1) posts signed alerts to a receiver in the test, exactly one per change of state; two consoles on one
 * PostgreSQL run each due run once; a run missed while the console was down runs once at start, marked late.
 */
import { createHmac, generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import type { MonitorDetailResponse, MonitorView } from "@/lib/shared/monitors-api";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { startPostgres, type PostgresCluster } from "../../support/postgres";
import { ConsoleClient } from "@/test/support/http-client";

const SECRET = "monitor-client-secret-4711";
const WEBHOOK_SECRET = "webhook-secret-of-the-test";
const work = mkdtempSync(path.join(os.tmpdir(), "monitors-"));

async function createMonitor(client: ConsoleClient, body: Record<string, unknown>): Promise<MonitorView> {
  const created = await client.json<MonitorView>("POST", "/api/monitors", { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** The monitor once it has `count` runs and none is under way. */
async function settled(client: ConsoleClient, id: string, count: number): Promise<MonitorDetailResponse> {
  let detail: MonitorDetailResponse | undefined;
  await expect
    .poll(
      async () => {
        detail = (await client.json<MonitorDetailResponse>("GET", `/api/monitors/${id}`)).body;
        return detail.runs.length >= count && detail.runs.every((run) => run.status !== "running");
      },
      { timeout: 90_000, interval: 500 },
    )
    .toBe(true);
  return detail as MonitorDetailResponse;
}

describe("alerts to a webhook", () => {
  let upstream: SandboxServer;
  let receiver: Server;
  let server: ConsoleServer;
  let client: ConsoleClient;
  let broken = false;
  const alerts: { body: string; signature: string | undefined }[] = [];

  beforeAll(async () => {
    const sandbox = createSandbox({ demoSecret: SECRET });
    upstream = await startSandboxServer({
      port: 0,
      sandbox: {
        ...sandbox,
        // While `broken`, Balance Inquiry answers 500: BI-01 fails.
        handle: (request, caller) =>
          broken && new URL(request.url).pathname.endsWith("/transaction/v1/balance-inquiry")
            ? Promise.resolve(new Response("{}", { status: 500 }))
            : sandbox.handle(request, caller),
      },
    });
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        alerts.push({ body, signature: request.headers["x-console-signature"] as string | undefined });
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const profile = path.join(work, "profile.json");
    writeFileSync(
      profile,
      JSON.stringify({ cards: { active: "6006491000000001" }, transaction_lookup: true }),
    );
    server = await startConsole({
      CARD_API_AUTH_URL: upstream.url,
      CARD_API_SANDBOX_URL: upstream.url,
      CARD_API_CLIENT_ID: "demo-client",
      CARD_API_CLIENT_SECRET: SECRET,
      CERTIFICATION_PROFILE: profile,
      ALERT_WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      ALERT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    client = new ConsoleClient(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it("sends one signed monitor_failing, none while it stays broken, and one monitor_recovered", async () => {
    const monitor = await createMonitor(client, {
      name: "Sandbox balance",
      environment: "sandbox",
      cases: ["BI-01"],
      every_minutes: 60,
    });
    let detail = await settled(client, monitor.id, 1);
    expect(detail.monitor.state).toBe("passing");

    broken = true;
    expect((await client.json("POST", `/api/monitors/${monitor.id}/run`, { body: {} })).status).toBe(202);
    detail = await settled(client, monitor.id, 2);
    expect(detail.monitor.state).toBe("failing");
    await expect.poll(() => alerts.length, { timeout: 30_000 }).toBe(1);
    const [failing] = alerts;
    const body = JSON.parse(failing?.body ?? "{}");
    expect(body).toMatchObject({
      event: "monitor_failing",
      monitor: { id: monitor.id, name: "Sandbox balance", environment: "sandbox" },
      run: {
        id: detail.runs[0]?.id,
        failed: 1,
        failed_cases: ["BI-01"],
        url: `${server.url}/certification/runs/${detail.runs[0]?.id}`,
      },
    });
    expect(body.text).toMatch(/^Monitor "Sandbox balance" on sandbox is failing: /);
    const expected = createHmac("sha256", WEBHOOK_SECRET)
      .update(failing?.body ?? "")
      .digest("hex");
    expect(failing?.signature).toBe(`sha256=${expected}`);

    expect((await client.json("POST", `/api/monitors/${monitor.id}/run`, { body: {} })).status).toBe(202);
    await settled(client, monitor.id, 3);
    broken = false;
    expect((await client.json("POST", `/api/monitors/${monitor.id}/run`, { body: {} })).status).toBe(202);
    detail = await settled(client, monitor.id, 4);
    expect(detail.monitor.state).toBe("passing");
    // A failing alert for the third run would have been queued, and delivered, before this one.
    await expect.poll(() => alerts.length, { timeout: 30_000 }).toBe(2);
    expect(alerts.map((alert) => JSON.parse(alert.body).event)).toEqual([
      "monitor_failing",
      "monitor_recovered",
    ]);
  }, 240_000);

  it("refuses an environment it cannot certify, and a period out of bounds", async () => {
    const refused = await client.json<{ error: { code: string } }>("POST", "/api/monitors", {
      body: { name: "P", environment: "production", every_minutes: 5 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("environment_unavailable");
    const bad = await client.json<{ error: { code: string } }>("POST", "/api/monitors", {
      body: { name: "P", environment: "sandbox", every_minutes: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");
  });
});

describe("two consoles on one PostgreSQL, and a restart", () => {
  let postgres: PostgresCluster;
  let databaseUrl = "";
  const consoles: ConsoleServer[] = [];
  const shared = {
    AUDIT_HMAC_KEY: "monitors-audit-hmac-key-shared-by-both-instances",
    EVIDENCE_SIGNING_KEY: generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
  };

  beforeAll(async () => {
    postgres = await startPostgres();
    databaseUrl = postgres.createDatabase();
    for (let index = 0; index < 2; index += 1) {
      consoles.push(await startConsole({ DATABASE_URL: databaseUrl, ...shared }));
    }
  }, 180_000);

  afterAll(async () => {
    for (const item of consoles) await item.stop();
    await postgres?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("runs each due run exactly once", async () => {
    const [first, second] = consoles.map((item) => new ConsoleClient(item.url));
    if (!first || !second) throw new Error("two consoles");
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      ids.push(
        (
          await createMonitor(index % 2 ? second : first, {
            name: `M${index}`,
            environment: "embedded",
            cases: ["BI-01"],
            every_minutes: 60,
          })
        ).id,
      );
    }
    for (const id of ids) await settled(first, id, 1);
    // Every monitor due again at once: both instances race for each.
    postgres.psql(databaseUrl, "update monitors set next_run_at = now()");
    for (const id of ids) await settled(second, id, 2);
    const runs = postgres.psql(
      databaseUrl,
      "select monitor_id, count(*) from monitor_runs group by monitor_id having count(*) <> 2",
    );
    expect(
      runs
        .trim()
        .split("\n")
        .filter((line) => /\|/.test(line) && !/monitor_id/.test(line)),
    ).toEqual([]);
    const certification = postgres.psql(databaseUrl, "select count(*) from certification_runs");
    expect(certification).toMatch(/\b8\b/);
  }, 300_000);

  it("runs a monitor missed while every instance was down once at start, marked late", async () => {
    const client = new ConsoleClient(consoles[0]?.url ?? "");
    const monitor = await createMonitor(client, {
      name: "Late",
      environment: "embedded",
      cases: ["BI-01"],
      every_minutes: 15,
    });
    await settled(client, monitor.id, 1);
    for (const item of consoles.splice(0)) await item.stop();
    // Down for hours: many slots missed.
    postgres.psql(
      databaseUrl,
      `update monitors set next_run_at = now() - interval '5 hours' where id = '${monitor.id}'`,
    );
    consoles.push(await startConsole({ DATABASE_URL: databaseUrl, ...shared }));
    const restarted = new ConsoleClient(consoles[0]?.url ?? "");
    const detail = await settled(restarted, monitor.id, 2);
    expect(detail.runs).toHaveLength(2);
    expect(detail.runs[0]).toMatchObject({ scheduled: true, late: true, status: "done" });
    expect(
      Date.parse(detail.monitor.next_run_at) - Date.parse(detail.runs[0]?.started_at ?? ""),
    ).toBeGreaterThan(14 * 60_000);
  }, 300_000);
});
