/**
 * Requests without a signed-in user (AUTH_MODE=proxy, no identity headers) cannot flood the audit log: each
 * address is throttled past a limit per minute (429 `rate_limited` with Retry-After, in the one error shape), and
 * its refusals become one summary row per address and minute, with a count; a signed-in caller's refusals stay
 * one row each.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import * as tokenRoute from "@/app/api/token/route";
import type { AuditEntryInput } from "@/lib/server/audit";
import { createAnonymousRefusals } from "@/lib/server/audit/anonymous-refusals";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { getServices } from "@/lib/server/root";
import { call, configure, readJson } from "../support";

const SECRET = "proxy-shared-secret-0123456789";
/** The root's clock: the flood starts 5 s into a minute, so all of it falls in one minute. */
let clock = Date.parse("2026-01-01T10:00:05Z");

beforeAll(() => {
  setPeerHeaderStamped(true);
  configure(
    {
      AUTH_MODE: "proxy",
      PROXY_SHARED_SECRET: SECRET,
      TRUSTED_PROXIES: "10.0.0.0/8",
      ROLE_GROUPS: "support:desk",
    },
    { now: () => clock },
  );
});
afterAll(() => setPeerHeaderStamped(false));

const anonymous = (address: string) =>
  call(sessionRoute.GET, "GET", "/api/session", {
    headers: { [PEER_ADDRESS_HEADER]: address },
  });

describe("anonymous refusals through the route wrapper", () => {
  it("an address past 60 refusals a minute gets 429 with Retry-After; its refusals are one summary row", async () => {
    const { auditLog, anonymousRefusals } = await getServices();
    const before = (await auditLog.query({ limit: 500 })).rows.length;
    const statuses: number[] = [];
    for (let index = 0; index < 65; index += 1) statuses.push((await anonymous("203.0.113.7")).status);
    expect(statuses.slice(0, 60).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(60).every((status) => status === 429)).toBe(true);
    const throttled = await anonymous("203.0.113.7");
    expect(throttled.headers.get("retry-after")).toBe("55");
    expect((await readJson<{ error: { code: string } }>(throttled)).error.code).toBe("rate_limited");
    // Another address is not throttled.
    expect((await anonymous("203.0.113.8")).status).toBe(401);
    // Nothing written yet: no row per refused request.
    expect((await auditLog.query({ limit: 500 })).rows.length).toBe(before);
    // Nor while the minute runs.
    await anonymousRefusals.flush();
    expect((await auditLog.query({ limit: 500 })).rows.length).toBe(before);
    // The next minute the address is admitted again, and the finished minute is one row.
    clock += 60_000;
    expect((await anonymous("203.0.113.7")).status).toBe(401);
    await anonymousRefusals.flush();
    const { rows } = await auditLog.query({ event: "anonymous_refusals" });
    const flood = rows.filter((row) => row.clientAddress === "203.0.113.7");
    expect(flood).toHaveLength(1);
    expect(flood[0]).toMatchObject({
      userId: null,
      reason: "not_signed_in",
      details: { count: 66, throttled: 6 },
    });
    expect(rows.filter((row) => row.clientAddress === "203.0.113.8")[0]?.details).toMatchObject({ count: 1 });
  });

  it("a signed-in caller's refusals are one row, then one summary row per route and minute, then 429", async () => {
    const { auditLog, userRefusals } = await getServices();
    const headers = (user: string) => ({
      [PEER_ADDRESS_HEADER]: "10.0.0.5",
      "x-proxy-secret": SECRET,
      "x-forwarded-user": user,
      "x-forwarded-groups": "desk",
    });
    const statuses: number[] = [];
    for (let index = 0; index < 70; index += 1) {
      statuses.push(
        (await call(tokenRoute.POST, "POST", "/api/token", { body: {}, headers: headers("sam") })).status,
      );
    }
    expect(statuses.slice(0, 60).every((status) => status === 403)).toBe(true);
    expect(statuses.slice(60).every((status) => status === 429)).toBe(true);
    // Another user is not throttled.
    expect(
      (await call(tokenRoute.POST, "POST", "/api/token", { body: {}, headers: headers("kim") })).status,
    ).toBe(403);
    // The first refusal is written at once; the rest of the minute only counted.
    expect((await auditLog.query({ event: "refused", userId: "sam" })).rows).toHaveLength(1);
    await userRefusals.flush();
    expect((await auditLog.query({ event: "refused", userId: "sam" })).rows).toHaveLength(1);
    clock += 60_000;
    await userRefusals.flush();
    const rows = (await auditLog.query({ event: "refused", userId: "sam" })).rows;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      operation: "POST /api/token",
      reason: "forbidden_by_role",
      details: { count: 69, throttled: 10 },
    });
    // The next minute sam is admitted again.
    expect(
      (await call(tokenRoute.POST, "POST", "/api/token", { body: {}, headers: headers("sam") })).status,
    ).toBe(403);
  });
});

describe("a suspended user's refused polls", () => {
  it("are one row, then one summary row for the minute", async () => {
    const { auditLog, suspensions, userRefusals } = await getServices();
    await suspensions.suspend({ userId: "lee", minutes: 30, reason: null, by: "ada" });
    const headers = {
      [PEER_ADDRESS_HEADER]: "10.0.0.6",
      "x-proxy-secret": SECRET,
      "x-forwarded-user": "lee",
      "x-forwarded-groups": "desk",
    };
    for (let index = 0; index < 20; index += 1) {
      const polled = await call(sessionRoute.GET, "GET", "/api/session", { headers });
      expect(polled.status).toBe(403);
    }
    expect((await auditLog.query({ event: "refused", userId: "lee" })).rows).toHaveLength(1);
    await userRefusals.flush(true);
    const rows = (await auditLog.query({ event: "refused", userId: "lee" })).rows;
    expect(rows.map((row) => [row.reason, row.details?.count ?? 1])).toEqual([
      ["user_suspended", 19],
      ["user_suspended", 1],
    ]);
  });
});

describe("the summary of anonymous refusals", () => {
  it("writes one row per address and finished minute, none while the minute runs", async () => {
    let now = Date.parse("2026-01-01T10:00:05Z");
    const written: AuditEntryInput[] = [];
    const refusals = createAnonymousRefusals({
      append: async (entry) => void written.push(entry),
      now: () => now,
      flushEveryMs: 3_600_000,
    });
    for (let index = 0; index < 1000; index += 1)
      refusals.count("198.51.100.1", "not_signed_in", "GET /api/me");
    refusals.count("198.51.100.2", "not_signed_in", "GET /api/me");
    await refusals.flush();
    expect(written).toHaveLength(0);
    now += 60_000;
    refusals.count("198.51.100.1", "not_signed_in", "GET /api/me");
    await refusals.flush();
    expect(written.map((entry) => [entry.clientAddress, entry.details?.count])).toEqual([
      ["198.51.100.1", 1000],
      ["198.51.100.2", 1],
    ]);
    await refusals.close();
    expect(written).toHaveLength(3);
    expect(written[2]).toMatchObject({ clientAddress: "198.51.100.1", details: { count: 1 } });
  });
});
