/**
 * Certification runs follow the role table in the run's environment (docs/design.md §6, §8): an engineer may run
 * certification on embedded and sandbox but not in production, so a production run (a standalone sandbox plays
 * production here) is 403 `forbidden_by_role` to them on every route that reads or acts on it, and left out of
 * their list; a tester reads it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunListResponse, RunView } from "@/lib/shared/certification-api";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import type { ConsoleServer } from "../../support/console-server";
import { proxyIdentity, startProxyConsole } from "../../support/proxy-console";
import { api } from "../auth/team-console.support";

const SECRET = "proxy-shared-secret-for-production-runs";
const identity = proxyIdentity(SECRET);
const tester = identity("tess", "certification");
const engineer = identity("eve", "developers");

const work = mkdtempSync(path.join(os.tmpdir(), "cert-production-roles-"));
let upstream: SandboxServer;
let server: ConsoleServer;

beforeAll(async () => {
  upstream = await startSandboxServer({ port: 0, sandbox: createSandbox() });
  const profile = path.join(work, "profile.json");
  writeFileSync(
    profile,
    JSON.stringify({
      cards: { active: "6006491000000001", declined: "6006491000000027" },
      location_id: "cert-location-1",
      transaction_lookup: true,
    }),
  );
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "tester:certification,engineer:developers",
    env: {
      CARD_API_AUTH_URL: upstream.url,
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

async function runEnded(id: string): Promise<RunView> {
  await expect
    .poll(
      async () =>
        (await api<RunView>(server.url, null, "GET", `/api/certification/runs/${id}`, undefined, tester)).body
          .status,
      { timeout: 60_000, interval: 200 },
    )
    .toMatch(/^(done|cancelled|interrupted)$/);
  return (await api<RunView>(server.url, null, "GET", `/api/certification/runs/${id}`, undefined, tester))
    .body;
}

describe("production certification runs and the engineer (AUTH_MODE=proxy)", () => {
  test("an engineer gets 403 forbidden_by_role on a production run's every route and does not see it listed", async () => {
    const started = await api<{ id: string }>(
      server.url,
      null,
      "POST",
      "/api/certification/runs",
      { environment: "production", cases: ["GBI-01", "BI-01"], allow_production_gift: true },
      tester,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const run = await runEnded(started.body.id);
    const gift = run.exchanges.find((exchange) => exchange.operation === "gift_balance_inquiry");
    expect(gift).toBeDefined();
    const base = `/api/certification/runs/${run.id}`;
    const routes = [
      ["GET", base],
      ["GET", `${base}/exchanges/${gift!.id}`],
      ["GET", `${base}/evidence`],
      ["POST", `${base}/cancel`],
    ] as const;
    for (const [method, route] of routes) {
      const answer = await api(server.url, null, method, route, method === "POST" ? {} : undefined, engineer);
      expect({ route, status: answer.status, body: answer.body }).toMatchObject({
        status: 403,
        body: { error: { code: "forbidden_by_role" } },
      });
    }
    const engineerList = await api<RunListResponse>(
      server.url,
      null,
      "GET",
      "/api/certification/runs",
      undefined,
      engineer,
    );
    expect(engineerList.status).toBe(200);
    expect(engineerList.body.runs.map((item) => item.id)).not.toContain(run.id);

    for (const [method, route] of routes) {
      const answer = await api(server.url, null, method, route, method === "POST" ? {} : undefined, tester);
      expect({ route, status: answer.status }).toEqual({ route, status: 200 });
    }
    const testerList = await api<RunListResponse>(
      server.url,
      null,
      "GET",
      "/api/certification/runs",
      undefined,
      tester,
    );
    expect(testerList.body.runs.map((item) => item.id)).toContain(run.id);
  });
});
