/**
 * A suspension, or an admin ending all of a user's sessions, stops what runs in their name: their support batch (no
 * more lookups, no more audit rows as them) and their queued or running certification runs; the answer and the
 * audit row say how many, and a lift restarts nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runsRoute from "@/app/api/certification/runs/route";
import * as sessionsRoute from "@/app/api/admin/sessions/route";
import * as suspensionsRoute from "@/app/api/admin/suspensions/route";
import * as liftRoute from "@/app/api/admin/suspensions/[user]/route";
import * as batchesRoute from "@/app/api/support/batches/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import { getServices } from "@/lib/server/root";
import { batchStatus } from "@/lib/server/support/batch-store";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { call, configure, CookieJar, readJson } from "../support";

const SECRET = "proxy-shared-secret-for-unit-tests";
const as = (user: string, groups: string) => ({
  [PEER_ADDRESS_HEADER]: "127.0.0.1",
  "X-Forwarded-User": user,
  "X-Forwarded-Groups": groups,
  "X-Proxy-Secret": SECRET,
});
const SAM = as("sam", "desk,qa");
const ADA = as("ada", "admins");
/** 200 cards, of which the rate limit lets 5 run this minute: the batch is still running when sam is suspended. */
const CARDS = Array.from({ length: 200 }, (_, index) => `60064910${String(index).padStart(8, "0")}`);

beforeAll(() => {
  setPeerHeaderStamped(true);
  configure({
    AUTH_MODE: "proxy",
    HOSTNAME: "127.0.0.1",
    TRUSTED_PROXIES: "127.0.0.1/32",
    PROXY_SHARED_SECRET: SECRET,
    ROLE_GROUPS: "support:desk,tester:qa,admin:admins",
    RATE_LIMIT_PER_MINUTE: "5",
  });
});
afterAll(() => setPeerHeaderStamped(false));

async function samAtWork(): Promise<{ jar: CookieJar; batchId: string; runIds: string[] }> {
  const jar = new CookieJar();
  const demo = { body: { profile: "demo" }, headers: SAM };
  expect((await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", demo, jar)).status).toBe(200);
  const batch = await call(
    batchesRoute.POST,
    "POST",
    "/api/support/batches",
    { body: { cards: CARDS, reason: "T-1" }, headers: SAM },
    jar,
  );
  expect(batch.status).toBe(202);
  const { id: batchId } = await readJson<{ id: string }>(batch);
  const runIds: string[] = [];
  // Embedded runs take turns: the second waits queued behind the first.
  for (let index = 0; index < 2; index += 1) {
    const run = await call(
      runsRoute.POST,
      "POST",
      "/api/certification/runs",
      { body: { environment: "embedded" }, headers: SAM },
      jar,
    );
    expect(run.status).toBe(202);
    runIds.push((await readJson<{ id: string }>(run)).id);
  }
  return { jar, batchId, runIds };
}

async function expectStopped(batchId: string, runIds: string[]) {
  const services = await getServices();
  const support = await services.support();
  await support.runner.settled(batchId);
  const certification = await services.certification();
  for (const id of runIds) {
    await expect
      .poll(async () => (await certification.view(id)).status, { timeout: 60_000 })
      .not.toMatch(/queued|running/);
  }
  // The queued run never ran a case.
  expect(await certification.view(runIds[1]!)).toMatchObject({ status: "cancelled", done: 0 });
  const cards = (await services.auditLog.query({ event: "support_batch_card", userId: "sam", limit: 500 }))
    .rows;
  const cancelled = (await services.auditLog.query({ event: "support_batch_cancelled", limit: 50 })).rows;
  return { cards: cards.length, cancelled: cancelled.filter((row) => row.details?.batch_id === batchId) };
}

describe("suspending a user", () => {
  it("stops their running batch and certification runs, says so, and a lift restarts nothing", async () => {
    const { batchId, runIds } = await samAtWork();
    const suspended = await call(suspensionsRoute.POST, "POST", "/api/admin/suspensions", {
      body: { user_id: "sam", minutes: 30, reason: "T-2" },
      headers: ADA,
    });
    expect(suspended.status).toBe(201);
    const body = await readJson<{ sessions_ended: number; batches_stopped: number; runs_cancelled: number }>(
      suspended,
    );
    expect(body).toMatchObject({ sessions_ended: 1, batches_stopped: 1 });
    expect(body.runs_cancelled).toBeGreaterThanOrEqual(1);
    const { cards, cancelled } = await expectStopped(batchId, runIds);
    // The rate limit let a few run (5 a minute); the rest were never sent.
    expect(cards).toBeLessThan(20);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({ userId: "ada" });
    const { auditLog } = await getServices();
    const [row] = (await auditLog.query({ event: "user_suspended", limit: 1 })).rows;
    expect(row?.details).toMatchObject({
      suspended: "sam",
      batches_stopped: 1,
      runs_cancelled: body.runs_cancelled,
    });

    const lifted = await call(liftRoute.DELETE, "DELETE", "/api/admin/suspensions/sam", { headers: ADA });
    expect(lifted.status).toBe(200);
    const support = await (await getServices()).support();
    expect(await batchStatus(support.db, batchId)).toBe("cancelled");
    const { rows } = await auditLog.query({ event: "support_batch_card", userId: "sam", limit: 500 });
    expect(rows.length).toBe(cards);
  });
});

describe("ending all of a user's sessions", () => {
  it("stops their batch and runs too, and says so", async () => {
    const { batchId, runIds } = await samAtWork();
    const ended = await call(sessionsRoute.DELETE, "DELETE", "/api/admin/sessions?user=sam", {
      headers: ADA,
    });
    expect(ended.status).toBe(200);
    const body = await readJson<{ sessions_ended: number; batches_stopped: number; runs_cancelled: number }>(
      ended,
    );
    expect(body).toMatchObject({ sessions_ended: 1, batches_stopped: 1 });
    expect(body.runs_cancelled).toBeGreaterThanOrEqual(1);
    const { cancelled } = await expectStopped(batchId, runIds);
    expect(cancelled).toHaveLength(1);
  });
});

describe("suspending a user id the console has never seen", () => {
  it("asks first (409 unknown_user naming ids that differ only in case), and suspends when confirmed", async () => {
    await samAtWork();
    const suspend = (body: Record<string, unknown>) =>
      call(suspensionsRoute.POST, "POST", "/api/admin/suspensions", { body, headers: ADA });
    const asked = await suspend({ user_id: "Sam", minutes: 15 });
    expect(asked.status).toBe(409);
    expect(await readJson(asked)).toMatchObject({
      error: { code: "unknown_user", details: { user_id: "Sam", similar: ["sam"] } },
    });
    const { suspensions } = await getServices();
    expect((await suspensions.list()).map((row) => row.userId)).not.toContain("Sam");
    const confirmed = await suspend({ user_id: "Sam", minutes: 15, unknown_user: true });
    expect(confirmed.status).toBe(201);
    expect(await readJson(confirmed)).toMatchObject({ user_seen: false, sessions_ended: 0 });
    const seen = await suspend({ user_id: "sam", minutes: 15 });
    expect(await readJson(seen)).toMatchObject({ user_seen: true });
  });
});
