/**
 * The scheduler over the real database (the unit harness's PGlite) and real certification runs on the embedded
 * sandbox, with its clock and the webhook in the test's hands: no timers, no sleeps; each pass is `tick()`.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { getServices, setEmbeddedSandboxForTests } from "@/lib/server/root";
import { MonitorService } from "@/lib/server/monitors/service";
import { createMonitorStore } from "@/lib/server/monitors/store";
import { monitorRuns, monitors } from "@/lib/server/database/schema";
import { eq } from "drizzle-orm";
import type { MonitorDetailResponse } from "@/lib/shared/monitors-api";
import { createMetrics } from "@/lib/server/metrics";
import { refreshGauges } from "@/lib/server/metrics/scrape";
import { configure } from "../support";

const SECRET = "monitor-webhook-secret-for-tests";
const tester = { id: "tess", roles: ["tester"] as const };

let clock = new Date("2026-03-01T10:00:00.000Z");
let broken = false;
let webhookUp = true;
const received: { body: string; signature: string | null }[] = [];

const fakeFetch = (async (_url: string | URL | Request, init?: RequestInit) => {
  if (!webhookUp) throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
  received.push({
    body: String(init?.body),
    signature: new Headers(init?.headers).get("x-console-signature"),
  });
  return new Response("ok");
}) as typeof fetch;

let service: MonitorService;
let config: ReturnType<typeof configure>;

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
      const { runs: list } = await service.detail(id);
      return list.length >= runs && list.every((run) => run.status !== "running");
    })
    .toBe(true);
  return service.detail(id);
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
    expect((await service.detail(id)).runs).toHaveLength(1);
    const [listed] = await service.list();
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
    const { run_id } = await service.runNow(id);
    await expect(service.runNow(id)).rejects.toMatchObject({ code: "run_in_progress" });
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
    await service.runNow(id);
    let detail = await settled(id, 5);
    expect(detail.runs[0]).toMatchObject({ status: "done", failed: 1, failed_cases: ["BI-01"] });
    expect(detail.monitor.state).toBe("failing");
    await service.tick();
    expect(received).toHaveLength(1);
    const [failing] = received;
    const body = JSON.parse(failing?.body ?? "{}");
    expect(body).toMatchObject({
      event: "monitor_failing",
      monitor: { id, name: "BI", environment: "embedded" },
      run: { id: detail.runs[0]?.id, failed: 1, failed_cases: ["BI-01"] },
    });
    expect(body.run.url).toBe(`http://localhost:3000/certification/runs/${detail.runs[0]?.id}`);
    expect(failing?.signature).toBe(
      `sha256=${createHmac("sha256", SECRET)
        .update(failing?.body ?? "")
        .digest("hex")}`,
    );

    advance(1000);
    await service.runNow(id);
    await settled(id, 6);
    await service.tick();
    expect(received).toHaveLength(1);

    broken = false;
    advance(1000);
    await service.runNow(id);
    detail = await settled(id, 7);
    expect(detail.monitor.state).toBe("passing");
    await service.tick();
    expect(received.map((item) => JSON.parse(item.body).event)).toEqual([
      "monitor_failing",
      "monitor_recovered",
    ]);
  });

  it("retries a delivery that failed with backoff, shows it on the monitor, and gives up after an hour", async () => {
    webhookUp = false;
    broken = true;
    advance(1000);
    advance(1000);
    await service.runNow(id);
    await settled(id, 8);
    await service.tick();
    let monitor = (await service.detail(id)).monitor;
    expect(monitor.delivery_problem).toMatchObject({
      event: "monitor_failing",
      state: "pending",
      attempts: 1,
    });
    expect(monitor.delivery_problem?.last_error).toMatch(/did not answer/);
    // Not tried again before its backoff.
    await service.tick();
    expect((await service.detail(id)).monitor.delivery_problem?.attempts).toBe(1);
    for (let minute = 0; minute < 70; minute += 1) {
      advance(60_000);
      await service.tick();
    }
    monitor = (await service.detail(id)).monitor;
    expect(monitor.delivery_problem).toMatchObject({ state: "failed" });
    expect(monitor.delivery_problem?.attempts).toBeGreaterThan(3);
    expect(received).toHaveLength(2);
  });

  it("a paused monitor is not run; resumed, it runs at once and is not late", async () => {
    broken = false;
    webhookUp = true;
    // Runs the hour above made come due end first.
    const before = (await settled(id, 1)).runs.length;
    await service.update(id, { paused: true }, tester);
    advance(24 * 3600_000);
    await service.tick();
    expect((await service.detail(id)).runs.length).toBe(before);
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
    expect((await service.detail(orphan)).runs[0]?.status).toBe("running");
    await service.tick();
    const detail = await service.detail(orphan);
    expect(detail.runs[0]).toMatchObject({ id: run!.id, status: "done", passed: 1 });
    expect(detail.monitor.state).toBe("passing");
  });
});
