/**
 * A monitor is its owner's (docs/design.md §13), over HTTP behind a trusted proxy with real users: another tester
 * sees it read-only and gets 404 for every change, run, deletion or redelivery; an admin may do anything; an
 * engineer only reads; and lowering the period of a production monitor an admin allowed Gift Balance Inquiries
 * needs an admin, even for its owner.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import type { MonitorListResponse, MonitorView } from "@/lib/shared/monitors-api";
import type { ConsoleServer } from "../../support/console-server";
import { proxyIdentity, startProxyConsole } from "../../support/proxy-console";
import { api } from "../auth/team-console.support";

const SECRET = "proxy-shared-secret-for-monitor-owners";
const identity = proxyIdentity(SECRET);
const tess = identity("tess", "certification");
const otto = identity("otto", "certification");
const ada = identity("ada", "admins");
const eve = identity("eve", "developers");

const work = mkdtempSync(path.join(os.tmpdir(), "monitor-owners-"));
let upstream: SandboxServer;
let server: ConsoleServer;

beforeAll(async () => {
  upstream = await startSandboxServer({ port: 0, sandbox: createSandbox({ demoSecret: "demo-secret" }) });
  const profile = path.join(work, "profile.json");
  writeFileSync(profile, JSON.stringify({ cards: { active: "6006491000000001" } }));
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "tester:certification,engineer:developers,admin:admins",
    env: {
      CARD_API_AUTH_URL: upstream.url,
      CARD_API_SANDBOX_URL: upstream.url,
      CARD_API_PRODUCTION_URL: upstream.url,
      CARD_API_CLIENT_ID: "demo-client",
      CARD_API_CLIENT_SECRET: "demo-secret",
      CERTIFICATION_PROFILE: profile,
    },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await upstream?.close();
  rmSync(work, { recursive: true, force: true });
});

const call = <T>(headers: Record<string, string>, method: string, route: string, body?: unknown) =>
  api<T>(server.url, null, method, route, body, headers);

describe("a monitor is its owner's", () => {
  let mine: MonitorView;

  it("another tester sees it read-only and gets 404 for every change; an engineer only reads", async () => {
    const created = await call<MonitorView>(tess, "POST", "/api/monitors", {
      name: "Tess's sandbox",
      environment: "sandbox",
      cases: ["BI-01"],
      every_minutes: 60,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    mine = created.body;
    expect(mine).toMatchObject({ created_by: "tess", can_manage: true });

    const seen = await call<MonitorListResponse>(otto, "GET", "/api/monitors");
    expect(seen.body.monitors.find((item) => item.id === mine.id)).toMatchObject({ can_manage: false });
    const engineer = await call<MonitorListResponse>(eve, "GET", "/api/monitors");
    expect(engineer.status).toBe(200);
    expect((await call(eve, "GET", `/api/monitors/${mine.id}/deliveries`)).status).toBe(200);

    const refusals = [
      await call(otto, "PATCH", `/api/monitors/${mine.id}`, { paused: true }),
      await call(otto, "PATCH", `/api/monitors/${mine.id}`, { every_minutes: 1 }),
      await call(otto, "POST", `/api/monitors/${mine.id}/run`, {}),
      await call(otto, "DELETE", `/api/monitors/${mine.id}`),
      await call(
        otto,
        "POST",
        `/api/monitors/${mine.id}/deliveries/00000000-0000-0000-0000-000000000000/redeliver`,
        {},
      ),
    ];
    expect(refusals.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
    expect((await call(eve, "PATCH", `/api/monitors/${mine.id}`, { paused: true })).status).toBe(403);
    const after = await call<{ monitor: MonitorView }>(tess, "GET", `/api/monitors/${mine.id}`);
    expect(after.body.monitor).toMatchObject({ paused: false, every_minutes: 60 });
  }, 120_000);

  it("an admin may change anyone's; its owner may too", async () => {
    expect(
      (await call<MonitorView>(ada, "PATCH", `/api/monitors/${mine.id}`, { paused: true })).body.paused,
    ).toBe(true);
    expect(
      (await call<MonitorView>(tess, "PATCH", `/api/monitors/${mine.id}`, { paused: false })).body.paused,
    ).toBe(false);
  });

  it("lowering the period of an admin-approved production Gift monitor needs an admin, even for its owner", async () => {
    const created = await call<MonitorView>(tess, "POST", "/api/monitors", {
      name: "Production, daily",
      environment: "production",
      cases: ["BI-01"],
      every_minutes: 1440,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    expect((await call(tess, "PATCH", `/api/monitors/${id}`, { allow_production_gift: true })).status).toBe(
      403,
    );
    expect((await call(ada, "PATCH", `/api/monitors/${id}`, { allow_production_gift: true })).status).toBe(
      200,
    );

    const lowered = await call<{ error: { code: string } }>(tess, "PATCH", `/api/monitors/${id}`, {
      every_minutes: 1,
    });
    expect(lowered.status).toBe(403);
    expect(lowered.body.error.code).toBe("forbidden_by_role");
    expect((await call(tess, "PATCH", `/api/monitors/${id}`, { every_minutes: 2880 })).status).toBe(200);
    expect(
      (await call<MonitorView>(ada, "PATCH", `/api/monitors/${id}`, { every_minutes: 60 })).body
        .every_minutes,
    ).toBe(60);
    expect((await call(tess, "DELETE", `/api/monitors/${id}`)).status).toBe(200);
  }, 120_000);
});
