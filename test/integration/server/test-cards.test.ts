/**
 * GET /api/test-cards and /api/test-cards/{id} (docs/design.md §5): the cards a user may try, listed masked per
 * environment (embedded: the sandbox's fixtures; sandbox: the operator's CERTIFICATION_PROFILE cards; production:
 * none), one full number on demand, for engineer, tester and admin only.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TEST_CARDS } from "@/lib/sandbox/fixtures";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import type { TestCardList } from "@/lib/shared/test-cards";
import type { ConsoleServer } from "../../support/console-server";
import { proxyIdentity, startProxyConsole } from "../../support/proxy-console";
import { api } from "../auth/team-console.support";

const SECRET = "proxy-shared-secret-for-test-cards";
const identity = proxyIdentity(SECRET);
const engineer = identity("eve", "developers");
const tester = identity("tess", "certification");
const admin = identity("ada", "admins");
const support = identity("sam", "helpdesk");

const ACTIVE = "7777001234567890";
const DECLINED = "7777009876543210";
const work = mkdtempSync(path.join(os.tmpdir(), "test-cards-"));
let upstream: SandboxServer;
let server: ConsoleServer;

beforeAll(async () => {
  upstream = await startSandboxServer({ port: 0, sandbox: createSandbox() });
  const profile = path.join(work, "profile.json");
  writeFileSync(profile, JSON.stringify({ cards: { active: ACTIVE, declined: DECLINED } }));
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "tester:certification,engineer:developers,admin:admins,support:helpdesk",
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

const list = (environment: string, headers: Record<string, string>) =>
  api<TestCardList>(
    server.url,
    null,
    "GET",
    `/api/test-cards?environment=${environment}`,
    undefined,
    headers,
  );

describe("test cards offered beside the card field", () => {
  test("embedded lists the sandbox's cards masked, each with what it does, and no full number", async () => {
    const answer = await list("embedded", engineer);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.cards.map((card) => card.behaviour)).toEqual(TEST_CARDS.map((card) => card.behaviour));
    expect(answer.body.cards.map((card) => card.masked)).toEqual(
      TEST_CARDS.map((card) => `${card.cardNumber.slice(0, 6)}******${card.cardNumber.slice(-4)}`),
    );
    expect(answer.body.cards.find((card) => card.behaviour === "slow")?.label).toBe(
      "slow: no answer in time",
    );
    const text = JSON.stringify(answer.body);
    for (const card of TEST_CARDS) expect(text).not.toContain(card.cardNumber);
    expect(answer.headers.get("cache-control")).toContain("no-store");
  });

  test("a chosen card's full number comes from its own route, not cached", async () => {
    const { body } = await list("embedded", tester);
    const inactive = body.cards.find((card) => card.behaviour === "inactive");
    const answer = await api<{ card_number: string }>(
      server.url,
      null,
      "GET",
      `/api/test-cards/${inactive?.id}?environment=embedded`,
      undefined,
      tester,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ card_number: "6006491000000027" });
    expect(answer.headers.get("cache-control")).toContain("no-store");
  });

  test("sandbox lists the operator's profile cards, masked, and hands out their numbers", async () => {
    const answer = await list("sandbox", admin);
    expect(answer.status).toBe(200);
    expect(answer.body.cards).toEqual([
      { id: "profile-active", label: expect.any(String), behaviour: "active", masked: "777700******7890" },
      {
        id: "profile-declined",
        label: expect.any(String),
        behaviour: "declined",
        masked: "777700******3210",
      },
    ]);
    expect(JSON.stringify(answer.body)).not.toMatch(/7777001234567890|7777009876543210/);
    const number = await api(
      server.url,
      null,
      "GET",
      "/api/test-cards/profile-declined?environment=sandbox",
      undefined,
      admin,
    );
    expect(number.body).toEqual({ card_number: DECLINED });
  });

  test("production offers none, and a card of another environment is 404", async () => {
    const answer = await list("production", tester);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ cards: [] });
    const number = await api(
      server.url,
      null,
      "GET",
      "/api/test-cards/sandbox-1?environment=production",
      undefined,
      tester,
    );
    expect(number.status).toBe(404);
    expect(number.body).toMatchObject({ error: { code: "not_found" } });
  });

  test("support is refused 403, an anonymous caller 401, bad input 400 in the one error shape", async () => {
    for (const path of [
      "/api/test-cards?environment=embedded",
      "/api/test-cards/sandbox-1?environment=embedded",
    ]) {
      const refused = await api(server.url, null, "GET", path, undefined, support);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: { code: "forbidden_by_role" } });
      const anonymous = await api(server.url, null, "GET", path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ error: { code: "not_signed_in" } });
    }
    const badEnvironment = await list("mars", engineer);
    expect(badEnvironment.status).toBe(400);
    expect(badEnvironment.body).toMatchObject({ error: { code: "validation_failed" } });
    const badId = await api(
      server.url,
      null,
      "GET",
      "/api/test-cards/NOT%20AN%20ID?environment=embedded",
      undefined,
      engineer,
    );
    expect(badId.status).toBe(400);
    expect(badId.body).toMatchObject({ error: { code: "validation_failed" } });
  });
});
