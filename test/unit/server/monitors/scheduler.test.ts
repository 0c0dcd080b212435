/**
 * The scheduler over the real database (the unit harness's PGlite) and real certification runs on the embedded
 * sandbox, with its clock and the webhook in the test's hands: no timers, no sleeps; each pass is `tick()`.
 */
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { getServices, setEmbeddedSandboxForTests } from "@/lib/server/root";
import { MonitorService } from "@/lib/server/monitors/service";
import { createMonitorStore } from "@/lib/server/monitors/store";
import { alertDeliveries, monitorRuns, monitors } from "@/lib/server/database/schema";
import { eq } from "drizzle-orm";
import type { MonitorDetailResponse } from "@/lib/shared/monitors-api";
import { createMetrics } from "@/lib/server/metrics";
import { refreshGauges } from "@/lib/server/metrics/scrape";
import { configure } from "../support";

const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
const tester = { id: "tess", roles: ["tester"] as const };
const otherTester = { id: "otto", roles: ["tester"] as const };
const admin = { id: "ada", roles: ["admin"] as const };

let clock = new Date("2026-03-01T10:00:00.000Z");
let broken = false;
let webhookUp = true;
const received: { body: string; headers: Record<string, string> }[] = [];

const fakeFetch = (async (_url: string | URL | Request, init?: RequestInit) => {
  if (!webhookUp) throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
  received.push({ body: String(init?.body), headers: Object.fromEntries(new Headers(init?.headers)) });
  return new Response("ok");
}) as typeof fetch;

/** What the reference verifier makes of a received alert, its clock at the console's (the test's) time. */
function verified(alert: { body: string; headers: Record<string, string> } | undefined): unknown {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(clock);
    return new Webhook(SECRET).verify(alert?.body ?? "", alert?.headers ?? {});
  } finally {
    vi.useRealTimers();
  }
}

let service: MonitorService;
let config: ReturnType<typeof configure>;
const deliveryMetrics = createMetrics();

beforeAll(async () => {
  config = configure({
    ALERT_WEBHOOK_URL: "https://hooks.example.com/T1",
    ALERT_WEBHOOK_SECRET: SECRET,
  });
  const sandbox = createSandbox({ demoSecret: config.sandboxDemoSecret, basePath: "/sandbox" });
  // A Balance Inquiry that answers 500 while `broken`: BI-01 then fails.
  setEmbeddedSandboxForTests({
    ...sandbox,
    handle: (request, caller) =>
      broken && new URL(request.url).pathname.endsWith("/transaction/v1/balance-inquiry")
        ? Promise.resolve(new Response("{}", { status: 500 }))
        : sandbox.handle(request, caller),
  });
  const services = await getServices();
  service = new MonitorService({
    config,
    store: createMonitorStore(services.db),
    certification: services.certification,
    auditLog: services.auditLog,
    deliveryCounter: deliveryMetrics.alertDeliveries,
    now: () => clock,
    fetch: fakeFetch,
  });
});

afterAll(() => service.stop());

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

async function settled(id: string, runs: number): Promise<MonitorDetailResponse> {
  await expect
    .poll(async () => {
      const { runs: list } = await service.detail(id, tester);
      return list.length >= runs && list.every((run) => run.status !== "running");
    })
    .toBe(true);
  return service.detail(id, tester);
}

/** Alerts due now are attempted, and every attempt has ended. */
async function deliver(): Promise<void> {
  await service.deliverDue();
  await expect.poll(() => service.deliveriesInFlight).toBe(0);
}

describe("the scheduler", () => {
  let id = "";

  it("runs a new monitor at once, then not again before its period", async () => {
    id = (
      await service.create(
        { name: "BI", environment: "embedded", cases: ["BI-01"], every_minutes: 15 },
        tester,
      )
    ).id;
    await service.tick();
    const first = await settled(id, 1);
    expect(first.runs).toHaveLength(1);
    expect(first.runs[0]).toMatchObject({
      status: "done",
      passed: 1,
      failed: 0,
      scheduled: true,
      late: false,
    });
    expect(first.monitor.state).toBe("passing");
    expect(first.monitor.next_run_at).toBe("2026-03-01T10:15:00.000Z");
    await service.tick();
    expect((await service.detail(id, tester)).runs).toHaveLength(1);
    const {
      monitors: [listed],
    } = await service.list(tester);
    expect(listed).toMatchObject({
      id,
      state: "passing",
      last_run: { id: first.runs[0]?.id, status: "done" },
    });
    // The first run passed: nothing to alert.
    expect(received).toHaveLength(0);
  });

  it("run now does not move the schedule, and a second run meanwhile is 409 run_in_progress", async () => {
    advance(60_000);
    const { run_id } = await service.runNow(id, tester);
    await expect(service.runNow(id, tester)).rejects.toMatchObject({ code: "run_in_progress" });
    const detail = await settled(id, 2);
    expect(detail.runs[0]).toMatchObject({ id: run_id, scheduled: false });
    expect(detail.monitor.next_run_at).toBe("2026-03-01T10:15:00.000Z");
  });

  it("runs a due run once, from its start, and a run missed for hours once, marked late", async () => {
    clock = new Date("2026-03-01T10:15:05.000Z");
    await service.tick();
    let detail = await settled(id, 3);
    expect(detail.runs[0]).toMatchObject({ scheduled: true, late: false });
    expect(detail.monitor.next_run_at).toBe("2026-03-01T10:30:05.000Z");
    clock = new Date("2026-03-01T18:00:00.000Z");
    await Promise.all([service.tick(), service.tick()]);
    await service.tick();
    detail = await settled(id, 4);
    expect(detail.runs).toHaveLength(4);
    expect(detail.runs[0]).toMatchObject({ scheduled: true, late: true });
    expect(detail.monitor.next_run_at).toBe("2026-03-01T18:15:00.000Z");
  });

  it("alerts once, signed, when it breaks; not while it stays broken; once when it recovers", async () => {
    broken = true;
    advance(1000);
    await service.runNow(id, tester);
    let detail = await settled(id, 5);
    expect(detail.runs[0]).toMatchObject({ status: "done", failed: 1, failed_cases: ["BI-01"] });
    expect(detail.monitor.state).toBe("failing");
    await deliver();
    expect(received).toHaveLength(1);
    const [failing] = received;
    const body = verified(failing);
    expect(body).toMatchObject({
      type: "monitor.failing",
      timestamp: clock.toISOString(),
      data: {
        monitor: { id, name: "BI", environment: "embedded" },
        run: {
          id: detail.runs[0]?.id,
          failed: 1,
          failed_cases: ["BI-01"],
          url: `http://localhost:3000/certification/runs/${detail.runs[0]?.id}`,
        },
      },
    });

    advance(1000);
    await service.runNow(id, tester);
    await settled(id, 6);
    await deliver();
    expect(received).toHaveLength(1);

    broken = false;
    advance(1000);
    await service.runNow(id, tester);
    detail = await settled(id, 7);
    expect(detail.monitor.state).toBe("passing");
    await deliver();
    expect(received.map((item) => (verified(item) as { type: string }).type)).toEqual([
      "monitor.failing",
      "monitor.recovered",
    ]);
    const deliveries = await service.deliveries(id);
    expect(deliveries.map((delivery) => [delivery.type, delivery.state, delivery.attempts.length])).toEqual([
      ["monitor.recovered", "delivered", 1],
      ["monitor.failing", "delivered", 1],
    ]);
    expect(deliveries[0]?.attempts[0]).toMatchObject({ status: 200, at: clock.toISOString() });
    expect(received.map((item) => item.headers["webhook-id"])).toEqual(
      deliveries.map((delivery) => delivery.id).reverse(),
    );
  });

  it("retries a delivery at about 1, 5, 15 and 40 minutes, shows it on the monitor, then gives up; redelivers with the same id", async () => {
    webhookUp = false;
    broken = true;
    advance(1000);
    const made = clock.getTime();
    await service.runNow(id, tester);
    await settled(id, 8);
    await deliver();
    let monitor = (await service.detail(id, tester)).monitor;
    expect(monitor.delivery_problem).toMatchObject({
      type: "monitor.failing",
      state: "pending",
      attempts: 1,
    });
    expect(monitor.delivery_problem?.last_error).toMatch(/could not be reached/);
    // Not tried again before its backoff.
    await deliver();
    expect((await service.detail(id, tester)).monitor.delivery_problem?.attempts).toBe(1);
    for (let minute = 0; minute < 70; minute += 1) {
      advance(60_000);
      await deliver();
    }
    monitor = (await service.detail(id, tester)).monitor;
    expect(monitor.delivery_problem).toMatchObject({ state: "failed", attempts: 5 });
    const [failed] = await service.deliveries(id);
    expect(failed?.state).toBe("failed");
    expect(failed?.attempts.map((attempt) => Math.round((Date.parse(attempt.at) - made) / 60_000))).toEqual([
      0, 1, 5, 15, 40,
    ]);
    expect(received).toHaveLength(2);

    // Redelivered once the receiver is back: the same webhook-id, one more attempt, delivered.
    webhookUp = true;
    await expect(service.redeliver(id, failed!.id, otherTester)).rejects.toMatchObject({ code: "not_found" });
    await service.redeliver(id, failed!.id, tester);
    await deliver();
    expect(received.at(-1)?.headers["webhook-id"]).toBe(failed?.id);
    expect(verified(received.at(-1))).toMatchObject({ type: "monitor.failing" });
    const [redelivered] = await service.deliveries(id);
    expect(redelivered).toMatchObject({ id: failed?.id, state: "delivered" });
    expect(redelivered?.attempts).toHaveLength(6);
  });

  it("a paused monitor is not run; resumed, it runs at once and is not late", async () => {
    broken = false;
    webhookUp = true;
    // Runs the hour above made come due end first.
    const before = (await settled(id, 1)).runs.length;
    await service.update(id, { paused: true }, tester);
    advance(24 * 3600_000);
    await service.tick();
    expect((await service.detail(id, tester)).runs.length).toBe(before);
    await service.update(id, { paused: false }, tester);
    await service.tick();
    const detail = await settled(id, before + 1);
    expect(detail.runs[0]).toMatchObject({ scheduled: true, late: false });
  });

  it("reports each monitor's state and last run in the metrics, labelled by its id", async () => {
    const metrics = createMetrics();
    await refreshGauges(await getServices(), config, metrics);
    const text = await metrics.registry.metrics();
    expect(text).toContain(`console_monitor_up{monitor="${id}"} 1`);
    expect(text).toMatch(new RegExp(`console_monitor_last_run_timestamp_seconds\\{monitor="${id}"\\} \\d+`));
    // Every attempt above, by the state it left its delivery in: failing, recovered, the redelivery and the
    // recovery after the resume delivered; the failing alert retried 4 times, then given up.
    const deliveries = await deliveryMetrics.registry.metrics();
    expect(deliveries).toContain('console_alert_deliveries_total{state="delivered"} 4');
    expect(deliveries).toContain('console_alert_deliveries_total{state="pending"} 4');
    expect(deliveries).toContain('console_alert_deliveries_total{state="failed"} 1');
  });

  it("refuses an environment it cannot certify, and allow_production_gift from anyone but an admin", async () => {
    await expect(
      service.create({ name: "P", environment: "production", every_minutes: 5 }, tester),
    ).rejects.toMatchObject({ code: "environment_unavailable" });
    await expect(
      service.create(
        { name: "P", environment: "production", every_minutes: 5, allow_production_gift: true },
        tester,
      ),
    ).rejects.toMatchObject({ code: "forbidden_by_role" });
  });

  it("judges a run an instance left running when it died, once its certification run has ended", async () => {
    const { db } = await getServices();
    const orphan = (
      await service.create(
        { name: "Orphan", environment: "embedded", cases: ["BI-01"], every_minutes: 60 },
        tester,
      )
    ).id;
    await service.tick();
    const [run] = (await settled(orphan, 1)).runs;
    // The instance died after the run ended but before judging it: the row still says running, no lease is held.
    await db
      .update(monitorRuns)
      .set({ status: "running", finishedAt: null })
      .where(eq(monitorRuns.runId, run!.id));
    await db.update(monitors).set({ state: "unknown", busyUntil: null }).where(eq(monitors.id, orphan));
    expect((await service.detail(orphan, tester)).runs[0]?.status).toBe("running");
    await service.tick();
    const detail = await service.detail(orphan, tester);
    expect(detail.runs[0]).toMatchObject({ id: run!.id, status: "done", passed: 1 });
    expect(detail.monitor.state).toBe("passing");
  });

  it("names in alerts and on the page are stored with card numbers masked", async () => {
    const created = await service.create(
      { name: "Card 6006491000000001 <!here>", environment: "embedded", cases: ["BI-01"], every_minutes: 60 },
      tester,
    );
    expect(created.name).toBe("Card 600649******0001 <!here>");
    const changed = await service.update(created.id, { name: "Now 6006-4910-0000-0002" }, tester);
    expect(changed.name).toBe("Now 600649******0002");
    await service.remove(created.id, tester);
  });
});

describe("a monitor is its owner's", () => {
  let id = "";
  let gift = "";

  beforeAll(async () => {
    id = (
      await service.create(
        { name: "Tess's", environment: "embedded", cases: ["BI-01"], every_minutes: 30 },
        tester,
      )
    ).id;
    // An admin-approved production Gift monitor (inserted as it is stored: this console cannot certify production).
    gift = randomUUID();
    const { db } = await getServices();
    await db.insert(monitors).values({
      id: gift,
      name: "Production gift, daily",
      environment: "production",
      caseIds: ["GBI-01"],
      everyMinutes: 1440,
      allowProductionGift: true,
      paused: true,
      createdBy: tester.id,
      createdAt: clock,
      nextRunAt: clock,
      state: "unknown",
    });
  });

  it("others see it read-only, and get 404 for every change, run, pause, delete or redelivery", async () => {
    expect((await service.detail(id, otherTester)).monitor.can_manage).toBe(false);
    expect((await service.detail(id, tester)).monitor.can_manage).toBe(true);
    expect((await service.detail(id, admin)).monitor.can_manage).toBe(true);
    const refusals = [
      service.update(id, { every_minutes: 5 }, otherTester),
      service.update(id, { paused: true }, otherTester),
      service.runNow(id, otherTester),
      service.remove(id, otherTester),
      service.testAlert({ monitor_id: id }, otherTester),
    ];
    for (const refusal of refusals) await expect(refusal).rejects.toMatchObject({ code: "not_found" });
    const detail = await service.detail(id, tester);
    expect(detail.monitor).toMatchObject({ every_minutes: 30, paused: false });
  });

  it("an admin may change anyone's", async () => {
    expect((await service.update(id, { paused: true }, admin)).paused).toBe(true);
    expect((await service.update(id, { paused: false }, tester)).paused).toBe(false);
  });

  it("lowering the period of an admin-approved production Gift monitor needs an admin, even for its owner", async () => {
    await expect(service.update(gift, { every_minutes: 1 }, tester)).rejects.toMatchObject({
      code: "forbidden_by_role",
    });
    expect((await service.update(gift, { every_minutes: 2880 }, tester)).every_minutes).toBe(2880);
    expect((await service.update(gift, { name: "Production gift" }, tester)).every_minutes).toBe(2880);
    expect((await service.update(gift, { every_minutes: 60 }, admin)).every_minutes).toBe(60);
  });

  afterAll(async () => {
    await service.remove(gift, admin);
    await service.remove(id, admin);
  });
});

describe("alert_after_failures", () => {
  it("a flaky case (one run in three) pages nobody with 2; a real outage is alerted at its second failing run", async () => {
    const id = (
      await service.create(
        {
          name: "Flaky",
          environment: "embedded",
          cases: ["BI-01"],
          every_minutes: 60,
          alert_after_failures: 2,
        },
        tester,
      )
    ).id;
    const { db } = await getServices();
    await db.delete(alertDeliveries);
    received.length = 0;
    webhookUp = true;
    await service.tick();
    await settled(id, 1);
    const timeline = [true, false, true, true, false, true, true, false, true, false, false, false];
    for (const [index, passes] of timeline.entries()) {
      broken = !passes;
      advance(1000);
      await service.runNow(id, tester);
      const detail = await settled(id, index + 2);
      await deliver();
      // The outage starts at run 9 (index 9): its second failing run is index 10.
      expect(received.length, `after run ${index}`).toBe(index >= 10 ? 1 : 0);
      if (index < 10) expect(detail.monitor.state).not.toBe("failing");
    }
    expect(verified(received[0])).toMatchObject({
      type: "monitor.failing",
      data: { text: expect.stringMatching(/is failing \(2 runs in a row\)/) },
    });
    expect((await service.detail(id, tester)).monitor).toMatchObject({ state: "failing", failing_runs: 3 });
    broken = false;
    await service.remove(id, tester);
  });
});

describe("a receiver that hangs", () => {
  it("delays no run: 20 alerts queued, 4 attempts in flight, and a new monitor's first run starts at once", async () => {
    const { db } = await getServices();
    let calls = 0;
    const hanging = ((_url: string | URL | Request, init?: RequestInit) => {
      calls += 1;
      return new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    }) as typeof fetch;
    const hung = new MonitorService({
      config,
      store: createMonitorStore(db),
      certification: (await getServices()).certification,
      auditLog: (await getServices()).auditLog,
      now: () => clock,
      fetch: hanging,
    });
    try {
      const owner = (
        await hung.create(
          { name: "Owner", environment: "embedded", cases: ["BI-01"], every_minutes: 60 },
          tester,
        )
      ).id;
      await db.delete(alertDeliveries);
      for (let index = 0; index < 20; index += 1) {
        await db.insert(alertDeliveries).values({
          id: randomUUID(),
          monitorId: owner,
          type: "monitor.test",
          body: "{}",
          state: "pending",
          attempts: 0,
          createdAt: clock,
          retryFrom: clock,
          nextAttemptAt: clock,
        });
      }
      await hung.deliverDue();
      expect(hung.deliveriesInFlight).toBe(4);
      await expect.poll(() => calls).toBe(4);

      const started = performance.now();
      const { id } = await hung.create(
        { name: "New", environment: "embedded", cases: ["BI-01"], every_minutes: 1 },
        tester,
      );
      await hung.tick();
      const [run] = (await hung.detail(id, tester)).runs;
      const elapsed = performance.now() - started;
      expect(run, "the new monitor's first run has started").toBeDefined();
      expect(elapsed).toBeLessThan(1000);
      // Its next run is due in a minute: started on time, though the receiver still hangs.
      advance(60_000);
      await expect
        .poll(async () => (await hung.detail(id, tester)).runs.every((item) => item.status !== "running"))
        .toBe(true);
      const due = performance.now();
      await hung.tick();
      expect((await hung.detail(id, tester)).runs).toHaveLength(2);
      expect(performance.now() - due).toBeLessThan(1000);
      expect(hung.deliveriesInFlight).toBe(4);
      expect(calls).toBe(4);
    } finally {
      await hung.stop();
    }
    // Stopping gave the claims back unattempted: another instance takes them at once.
    const rows = await db.select().from(alertDeliveries);
    expect(rows.filter((row) => row.claim !== null)).toEqual([]);
    expect(rows.every((row) => row.state === "pending" && row.attempts === 0)).toBe(true);
  });
});
