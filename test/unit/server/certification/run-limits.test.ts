/**
 * What one user can make certification runs do (docs/design.md §13): at most CERTIFICATION_RUNS_PER_HOUR runs per
 * environment and hour, started directly or through a monitor's "run now" (429 `rate_limited` with Retry-After,
 * nothing stored), and a run's calls to a real upstream spend the user's RATE_LIMIT_PER_MINUTE as their own do.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runsRoute from "@/app/api/certification/runs/route";
import * as monitorsRoute from "@/app/api/monitors/route";
import * as runNowRoute from "@/app/api/monitors/[id]/run/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import { rateLimits } from "@/lib/server/database/schema";
import type { RunState } from "@/lib/shared/certification-contract";
import { spendCertificationRun } from "@/lib/server/http/rate-limit";
import { getServices } from "@/lib/server/root";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { call, configure, CookieJar, readJson } from "../support";

interface ErrorShape {
  error: {
    code: string;
    details?: { limit?: number; window_seconds?: number; retry_after_seconds?: number };
  };
}

const start = (jar: CookieJar | undefined, environment: string) =>
  call(runsRoute.POST, "POST", "/api/certification/runs", { body: { environment, cases: ["TOK-01"] } }, jar);

describe("CERTIFICATION_RUNS_PER_HOUR", () => {
  it("refuses a user's runs past the limit with 429 and Retry-After, direct and through run now", async () => {
    configure({ CERTIFICATION_RUNS_PER_HOUR: "2" });
    const jar = new CookieJar();
    const demo = { body: { profile: "demo" } };
    expect((await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", demo, jar)).status).toBe(200);
    const service = await (await getServices()).certification();
    const before = (await service.list()).length;
    expect((await start(jar, "embedded")).status).toBe(202);
    expect((await start(jar, "embedded")).status).toBe(202);
    const refused = await start(jar, "embedded");
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(await readJson<ErrorShape>(refused)).toMatchObject({
      error: { code: "rate_limited", details: { limit: 2, window_seconds: 3600, retry_after_seconds: wait } },
    });
    // Nothing was stored for the refused run.
    expect((await service.list()).length).toBe(before + 2);

    const created = await call(monitorsRoute.POST, "POST", "/api/monitors", {
      body: { name: "Tokens", environment: "embedded", cases: ["TOK-01"], every_minutes: 1440 },
    });
    expect(created.status).toBe(201);
    const { id } = await readJson<{ id: string }>(created);
    const runNow = await call(runNowRoute.POST, "POST", `/api/monitors/${id}/run`, { body: {} });
    expect(runNow.status).toBe(429);
    expect((await readJson<ErrorShape>(runNow)).error.code).toBe("rate_limited");
  });

  it("counts per user and per environment", async () => {
    configure();
    const { rateLimiter } = await getServices();
    const spend = (user: string, environment: string) =>
      spendCertificationRun(rateLimiter, user, environment, 1);
    await spend("ann", "sandbox");
    await expect(spend("ann", "sandbox")).rejects.toMatchObject({ code: "rate_limited" });
    await spend("ann", "production");
    await spend("bob", "sandbox");
  });
});

describe("what a user's runs keep", () => {
  it("keeps the newest ended runs a user started, never one under way, deleting the older", async () => {
    configure();
    const { store } = await (await getServices()).certification();
    const run = (id: string, minute: number, status: RunState["status"]): RunState => ({
      id,
      status,
      environment: { name: "embedded", auth_url: "http://a", base_url: "http://a" },
      client_id: "demo-client",
      operator: "Ann",
      operator_id: "ann",
      allow_production_gift: false,
      case_ids: [],
      total: 0,
      done: 0,
      started_at: new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString(),
      ...(status === "running"
        ? {}
        : { finished_at: new Date(Date.UTC(2026, 0, 1, 10, minute, 30)).toISOString() }),
      results: [],
      exchanges: [],
      tokens: [],
    });
    const ids = ["a0000000-0000-4000-8000-000000000001", "a0000000-0000-4000-8000-000000000002"];
    const more = ["a0000000-0000-4000-8000-000000000003", "a0000000-0000-4000-8000-000000000004"];
    await store.save(run(ids[0]!, 1, "done"));
    await store.save(run(ids[1]!, 2, "running"));
    await store.save(run(more[0]!, 3, "done"));
    await store.save(run(more[1]!, 4, "cancelled"));
    expect(await store.pruneOperatorRuns("ann", 2)).toBe(1);
    expect(await store.get(ids[0]!)).toBeUndefined();
    for (const kept of [ids[1]!, ...more]) expect(await store.get(kept)).toBeDefined();
  });
});

describe("a run's calls to a real upstream", () => {
  const sandbox = createSandbox();
  let server: SandboxServer;
  let folder: string;
  beforeAll(async () => {
    server = await startSandboxServer({ port: 0, sandbox });
    folder = mkdtempSync(path.join(tmpdir(), "run-limits-"));
  });
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("spend the user's RATE_LIMIT_PER_MINUTE, as their own calls do", async () => {
    const profile = path.join(folder, "profile.json");
    writeFileSync(profile, JSON.stringify({ cards: { active: "6006491000000001" } }));
    configure({
      EMBEDDED_SANDBOX: "off",
      CARD_API_AUTH_URL: server.url,
      CARD_API_SANDBOX_URL: server.url,
      CERTIFICATION_PROFILE: profile,
      // Under 32: the limiter leases one call at a time, so its counter is the calls made.
      RATE_LIMIT_PER_MINUTE: "30",
    });
    const jar = new CookieJar();
    const credentials = await call(
      credentialsRoute.PUT,
      "PUT",
      "/api/session/credentials",
      { body: { client_id: "demo-client", client_secret: "demo-secret" } },
      jar,
    );
    expect(credentials.status).toBe(200);
    const started = await start(jar, "sandbox");
    expect(started.status).toBe(202);
    const { id } = await readJson<{ id: string }>(started);
    const services = await getServices();
    const certification = await services.certification();
    await expect.poll(async () => (await certification.view(id)).status, { timeout: 30_000 }).toBe("done");
    const exchanges = (await certification.store.get(id))?.exchanges.length ?? 0;
    expect(exchanges).toBeGreaterThan(0);
    const [counter] = await services.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(eq(rateLimits.key, "upstream:local|60"));
    expect(counter?.count ?? 0).toBeGreaterThanOrEqual(exchanges);
  });
});
