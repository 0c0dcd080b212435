/**
 * Support signed in, on the production build: in AUTH_MODE=oidc against the in-process provider, a signed-in
 * support agent (`sam`, group support-desk) looks up a card and runs a batch, sees the card as its last 4 only, is
 * refused what the support role may not do, and an admin then finds every lookup in the audit log under sam's
 * identity, masked, with the reason, in an unbroken chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import type { SupportBatchProgress, SupportLookupResult } from "@/lib/shared/support-contract";
import { SUPPORT_AUDIT_EVENTS } from "@/lib/server/support/audit-rows";
import type { CookieJar } from "../auth/provider-driver";
import {
  api,
  signIn,
  startOidcTeam,
  stopTeam,
  type AuditRowJson,
  type Team,
} from "../auth/team-console.support";

const CARD = "6006491000000001";
const FIRST6 = CARD.slice(0, 6);
const PURSES = [
  "gift",
  "gift_rewards",
  "loyalty",
  "loyalty_rewards",
  "discount",
  "promotional",
  "punch",
  "punch_rewards",
];
const LOOKUP_REASON = "TICKET-12-LOOKUP";
const BATCH_REASON = "TICKET-12-BATCH";
/** 20 cards of the sandbox: active ones and unknown ones alike are looked up and audited. */
const BATCH_CARDS = Array.from({ length: 20 }, (_, index) =>
  index % 5 === 4
    ? `7006491${String(index).padStart(9, "0")}`
    : ["6006491000000001", "6006491000000019"][index % 2]!,
);

type AuditRow = AuditRowJson & { details: Record<string, unknown> };

let sandbox: SandboxServer;
let team: Team;
let url: string;
let sam: CookieJar;
let samId: string;
let batchId: string;

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0 });
  team = await startOidcTeam({ count: 1, sandboxUrl: sandbox.url, env: { RATE_LIMIT_PER_MINUTE: "600" } });
  url = team.consoles[0]!.url;
  sam = await signIn(url, "sam", "/support");
  const me = await api<{ user: { id: string; roles: string[] } }>(url, sam, "GET", "/api/me");
  expect(me.body.user.roles).toEqual(["support"]);
  samId = me.body.user.id;
});
afterAll(async () => {
  await stopTeam(team);
  await sandbox?.close();
});

describe("a signed-in support agent", () => {
  it("looks up a card: the eight purses, the card as its last 4 only", async () => {
    const lookup = await api<SupportLookupResult>(url, sam, "POST", "/api/support/lookups", {
      card_number: CARD,
      reason: LOOKUP_REASON,
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body.outcome).toBe("found");
    expect(Object.keys(lookup.body.balances ?? {}).sort()).toEqual([...PURSES].sort());
    expect(lookup.body.card.last4).toBe("0001");
    expect(lookup.body.card.masked).not.toContain(FIRST6);
    expect(lookup.body.card.masked).toMatch(/0001$/);
    expect(JSON.stringify(lookup.body)).not.toContain(FIRST6);
  });

  it("runs a 20-card batch to done; its results CSV holds last 4 and hash only", async () => {
    const started = await api<SupportBatchProgress>(url, sam, "POST", "/api/support/batches", {
      cards: BATCH_CARDS,
      reason: BATCH_REASON,
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ total: 20, reason: BATCH_REASON });
    batchId = started.body.id;
    await expect
      .poll(
        async () =>
          (await api<SupportBatchProgress>(url, sam, "GET", `/api/support/batches/${batchId}`)).body,
        { timeout: 30_000, interval: 200 },
      )
      .toMatchObject({ status: "done", done: 20, failed: 4 });

    const csv = await api<string>(url, sam, "GET", `/api/support/batches/${batchId}/results.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const [header, ...rows] = csv.body.trim().split("\r\n");
    expect(header).not.toMatch(/card_number|masked/);
    expect(rows).toHaveLength(20);
    expect(rows[0]).toMatch(/^\d+,0001,(?:'-|\w)[\w-]{42},25\.00,/);
    expect(rows[4]).toMatch(/^\d+,\d{4},(?:'-|\w)[\w-]{42},,,,,,,,,not_found,/);
    expect(csv.body).not.toMatch(/\d{12,}/);
    expect(csv.body).not.toContain(FIRST6);
  });

  it("is refused a Gift Balance Inquiry, a token and the audit log: 403 forbidden_by_role", async () => {
    const refusals = [
      await api(url, sam, "POST", "/api/inquiries/gift-balance", {
        card_number: CARD,
        location_id: "store-7",
        environment: "embedded",
      }),
      await api(url, sam, "POST", "/api/token", {}),
      await api(url, sam, "GET", "/api/audit"),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: { code: "forbidden_by_role" } });
    }
  });
});

describe("an admin reading the audit log", () => {
  it("finds sam's lookup and one row per batch card, masked to the last 4, with the reason", async () => {
    const alice = await signIn(url, "alice");
    const page = await api<{ rows: AuditRow[]; next_cursor: string | null }>(
      url,
      alice,
      "GET",
      `/api/audit?user=${encodeURIComponent(samId)}&limit=200`,
    );
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toBeNull();
    const rows = page.body.rows;
    expect(rows.every((row) => row.user_id === samId)).toBe(true);

    const lookups = rows.filter((row) => row.event === SUPPORT_AUDIT_EVENTS.lookup);
    expect(lookups).toHaveLength(1);
    expect(lookups[0]).toMatchObject({
      card: "0001",
      reason: LOOKUP_REASON,
      outcome: "success",
      upstream_status: 200,
      roles: ["support"],
    });

    const batchCards = rows.filter((row) => row.event === SUPPORT_AUDIT_EVENTS.batchCard);
    expect(batchCards).toHaveLength(BATCH_CARDS.length);
    expect(batchCards.every((row) => row.reason === BATCH_REASON)).toBe(true);
    expect(batchCards.every((row) => /^\d{4}$/.test(row.card ?? ""))).toBe(true);
    expect(new Set(batchCards.map((row) => row.details.batch_id))).toEqual(new Set([batchId]));
    expect(batchCards.map((row) => row.card).sort()).toEqual(
      BATCH_CARDS.map((card) => card.slice(-4)).sort(),
    );
    expect(batchCards.filter((row) => row.outcome === "failure")).toHaveLength(4);
    expect(rows.filter((row) => row.event === SUPPORT_AUDIT_EVENTS.batchStarted)).toHaveLength(1);
    expect(rows.filter((row) => row.event === "refused" && row.reason === "forbidden_by_role")).toHaveLength(
      3,
    );
    expect(JSON.stringify(rows)).not.toContain(FIRST6);

    const verify = await api<{ ok: boolean }>(url, alice, "GET", "/api/audit/verify");
    expect(verify.status).toBe(200);
    expect(verify.body.ok).toBe(true);
  });
});
