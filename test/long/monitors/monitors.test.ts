/**
 * Monitors over HTTP (docs/design.md §13): a console whose `sandbox` environment is an upstream this test controls
 * (127.0.0.1) posts alerts signed as Standard Webhooks to a receiver in the test, exactly one per change of state;
 * two consoles on one PostgreSQL run each due run once and deliver each alert once, and a receiver that hangs
 * delays none of their runs; a run missed while the console was down runs once at start, marked late.
 */
import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryView, MonitorDetailResponse, MonitorView } from "@/lib/shared/monitors-api";
import {
  receiveAlert,
  startAlertingConsole,
  verifyAlert,
  type AlertingConsole,
  type ReceivedAlert,
} from "../../support/alerting-console";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { startPostgres, type PostgresCluster } from "../../support/postgres";
import { ConsoleClient } from "@/test/support/http-client";

const WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;

const verify = (alert: ReceivedAlert | undefined) => verifyAlert(WEBHOOK_SECRET, alert);

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
  let alerting: AlertingConsole;
  let server: ConsoleServer;
  let client: ConsoleClient;
  let alerts: ReceivedAlert[];

  beforeAll(async () => {
    alerting = await startAlertingConsole({
      clientSecret: "monitor-client-secret-4711",
      webhookSecret: WEBHOOK_SECRET,
      webhookPath: "/hook",
    });
    ({ server, alerts } = alerting);
    client = new ConsoleClient(server.url);
  }, 120_000);

  afterAll(() => alerting?.stop());

  it("sends one monitor.failing, none while it stays broken, and one monitor.recovered, each verified", async () => {
    const monitor = await createMonitor(client, {
      name: "Sandbox balance",
      environment: "sandbox",
      cases: ["BI-01"],
      every_minutes: 60,
    });
    let detail = await settled(client, monitor.id, 1);
    expect(detail.monitor.state).toBe("passing");

    alerting.setBroken(true);
    expect((await client.json("POST", `/api/monitors/${monitor.id}/run`, { body: {} })).status).toBe(202);
    detail = await settled(client, monitor.id, 2);
    expect(detail.monitor.state).toBe("failing");
    await expect.poll(() => alerts.length, { timeout: 30_000 }).toBe(1);
    const [failing] = alerts;
    expect(verify(failing)).toMatchObject({
      type: "monitor.failing",
      data: {
        monitor: { id: monitor.id, name: "Sandbox balance", environment: "sandbox" },
        run: {
          id: detail.runs[0]?.id,
          failed: 1,
          failed_cases: ["BI-01"],
          url: `${server.url}/certification/runs/${detail.runs[0]?.id}`,
        },
        text: expect.stringMatching(/^Monitor "Sandbox balance" on sandbox is failing: /),
      },
    });

    expect((await client.json("POST", `/api/monitors/${monitor.id}/run`, { body: {} })).status).toBe(202);
    await settled(client, monitor.id, 3);
    alerting.setBroken(false);
    expect((await client.json("POST", `/api/monitors/${monitor.id}/run`, { body: {} })).status).toBe(202);
    detail = await settled(client, monitor.id, 4);
    expect(detail.monitor.state).toBe("passing");
    // A failing alert for the third run would have been queued, and delivered, before this one.
    await expect.poll(() => alerts.length, { timeout: 30_000 }).toBe(2);
    expect(alerts.map((alert) => verify(alert).type)).toEqual(["monitor.failing", "monitor.recovered"]);
    const deliveries = (
      await client.json<{ deliveries: DeliveryView[] }>("GET", `/api/monitors/${monitor.id}/deliveries`)
    ).body.deliveries;
    expect(deliveries.map((delivery) => [delivery.type, delivery.state])).toEqual([
      ["monitor.recovered", "delivered"],
      ["monitor.failing", "delivered"],
    ]);
    expect(alerts.map((alert) => alert.headers["webhook-id"])).toEqual(
      deliveries.map((delivery) => delivery.id).reverse(),
    );

    // Redelivered: the same webhook-id, a fresh timestamp and signature.
    const redelivered = await client.json<DeliveryView>(
      "POST",
      `/api/monitors/${monitor.id}/deliveries/${deliveries[1]?.id}/redeliver`,
      { body: {} },
    );
    expect(redelivered.status).toBe(202);
    await expect.poll(() => alerts.length, { timeout: 30_000 }).toBe(3);
    expect(alerts[2]?.headers["webhook-id"]).toBe(deliveries[1]?.id);
    expect(verify(alerts[2]).type).toBe("monitor.failing");

    const test = await client.json<DeliveryView>("POST", "/api/monitors/test-alert", {
      body: { monitor_id: monitor.id },
    });
    expect(test.status).toBe(202);
    await expect.poll(() => alerts.length, { timeout: 30_000 }).toBe(4);
    expect(verify(alerts[3])).toMatchObject({ type: "monitor.test", data: { monitor: { id: monitor.id } } });
    const metrics = await (await client.send("GET", "/api/metrics")).text();
    expect(metrics).toMatch(/console_alert_deliveries_total\{state="delivered"\} 4/);
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
  /** How the receiver answers: at once, after a second (slow), or never (hangs until the console gives up). */
  let receiverMode: "ok" | "slow" | "hang" = "ok";
  const received: ReceivedAlert[] = [];
  let open = 0;
  const receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
    open += 1;
    response.on("close", () => (open -= 1));
    void receiveAlert(request).then((alert) => {
      if (receiverMode === "hang") return;
      received.push(alert);
      setTimeout(() => response.end("ok"), receiverMode === "slow" ? 1000 : 0);
    });
  });
  const shared = {
    AUDIT_HMAC_KEY: "monitors-audit-hmac-key-shared-by-both-instances",
    EVIDENCE_SIGNING_KEY: generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
    ALERT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ALERT_WEBHOOK_URL: "",
  };

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    shared.ALERT_WEBHOOK_URL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    postgres = await startPostgres();
    databaseUrl = postgres.createDatabase();
    for (let index = 0; index < 2; index += 1) {
      consoles.push(await startConsole({ DATABASE_URL: databaseUrl, ...shared }));
    }
  }, 180_000);

  afterAll(async () => {
    for (const item of consoles) await item.stop();
    await postgres?.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
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

  it("delivers each alert once, though both consoles claim at once and the receiver is slow", async () => {
    receiverMode = "slow";
    const clients = consoles.map((item) => new ConsoleClient(item.url));
    const queued: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const test = await clients[index % 2]!.json<DeliveryView>("POST", "/api/monitors/test-alert", {
        body: {},
      });
      expect(test.status, JSON.stringify(test.body)).toBe(202);
      queued.push(test.body.id);
    }
    await expect
      .poll(
        () =>
          postgres
            .psql(databaseUrl, "select count(*) from alert_deliveries where state = 'delivered'")
            .trim(),
        {
          timeout: 60_000,
        },
      )
      .toBe("12");
    const ids = received.map((alert) => alert.headers["webhook-id"]);
    expect(ids.sort()).toEqual([...queued].sort());
    for (const alert of received) expect(verify(alert).type).toBe("monitor.test");
    // Each was attempted once, by one of the two.
    expect(postgres.psql(databaseUrl, "select distinct attempts from alert_deliveries").trim()).toBe("1");
    receiverMode = "ok";
  }, 120_000);

  it("a receiver that hangs, 20 alerts queued, delays no run: a new monitor's first run and its next are on time", async () => {
    const client = new ConsoleClient(consoles[0]?.url ?? "");
    const owner = await createMonitor(client, {
      name: "Owner",
      environment: "embedded",
      cases: ["BI-01"],
      every_minutes: 60,
    });
    await settled(client, owner.id, 1);
    receiverMode = "hang";
    postgres.psql(
      databaseUrl,
      `insert into alert_deliveries (id, monitor_id, type, body, state, attempts, created_at, retry_from, next_attempt_at)
       select gen_random_uuid()::text, '${owner.id}', 'monitor.test', '{}', 'pending', 0, now(), now(), now()
       from generate_series(1, 20)`,
    );
    // Both consoles' slots are full of hanging attempts: 4 each, no more.
    await expect.poll(() => open, { timeout: 30_000 }).toBe(8);

    const monitor = await createMonitor(client, {
      name: "Every minute",
      environment: "embedded",
      cases: ["BI-01"],
      every_minutes: 1,
    });
    const first = await settled(client, monitor.id, 1);
    const firstDelay = Date.parse(first.runs[0]?.started_at ?? "") - Date.parse(monitor.created_at);
    expect(firstDelay).toBeLessThan(1000);
    const period = Date.parse(first.monitor.next_run_at) - Date.parse(first.runs[0]?.started_at ?? "");
    expect(Math.abs(period - 60_000)).toBeLessThan(1000);
    // Its next run brought forward from a minute to six seconds, past the scheduler's five-second tick: the
    // run must still start when due, not at the tick after.
    const due = Number(
      postgres
        .psql(
          databaseUrl,
          `update monitors set next_run_at = now() + interval '6 seconds'
           where id = '${monitor.id}' returning floor(extract(epoch from next_run_at) * 1000)`,
        )
        .trim()
        .split("\n")[0],
    );
    const second = await settled(client, monitor.id, 2);
    const secondDelay = Date.parse(second.runs[0]?.started_at ?? "") - due;
    console.info(
      `first run ${firstDelay} ms after creation; next run ${secondDelay} ms after due; ${open} attempts open`,
    );
    expect(secondDelay).toBeLessThan(1000);
    expect(open).toBeLessThanOrEqual(8);
    await client.json("PATCH", `/api/monitors/${monitor.id}`, { body: { paused: true } });
    receiverMode = "ok";
  }, 180_000);

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
