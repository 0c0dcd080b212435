/**
 * The team console end to end, on the production build in real processes: AUTH_MODE=oidc against the
 * in-process provider, each kind of user signed in and refused what their role may not do, sign-out ending the
 * session for a copied cookie, idle and absolute expiry, the per-user rate limit, and the audit log holding every
 * step with an unbroken chain. The same suite runs on PGlite and on a real PostgreSQL, where two console
 * processes share one database: a sign-out on one ends the session on the other, and the chain stays one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { startPostgres, type PostgresCluster } from "@/test/support/postgres";
import { allAuditRows, api, signIn, startOidcTeam, stopTeam, type Team } from "./team-console.support";
import type { CookieJar } from "./provider-driver";

const CARD = "6006491000000001";
const RATE_LIMIT = 6;
const NOT_SIGNED_IN = { error: expect.objectContaining({ code: "not_signed_in" }) };

type Backend = "pglite" | "postgres";

let sandbox: SandboxServer;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
});

async function postgres(): Promise<PostgresCluster> {
  cluster ??= await startPostgres();
  return cluster;
}

/** `count` consoles on one database (PGlite: one), each with its own address registered at one provider. */
async function startTeam(backend: Backend, count: number, env: Record<string, string> = {}): Promise<Team> {
  const databaseUrl = backend === "postgres" ? (await postgres()).createDatabase() : undefined;
  return startOidcTeam({
    count,
    sandboxUrl: sandbox.url,
    databaseUrl,
    env: { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), ...env },
  });
}

const inquiry = (environment: string) => ({ card_number: CARD, location_id: "store-7", environment });

describe.each<Backend>(["pglite", "postgres"])("team console on %s", (backend) => {
  let team: Team;
  let url: string;
  let admin: CookieJar;

  beforeAll(async () => {
    team = await startTeam(backend, backend === "postgres" ? 2 : 1);
    url = team.consoles[0]!.url;
  });
  afterAll(() => stopTeam(team));

  it("answers nothing but /api/me and the sign-in flow to a signed-out visitor", async () => {
    expect((await api(url, null, "GET", "/api/me")).body).toEqual({ user: null });
    const session = await api(url, null, "GET", "/api/session");
    expect(session.status).toBe(401);
    expect(session.body).toEqual(NOT_SIGNED_IN);
    const spoofed = await api(url, null, "GET", "/api/session", undefined, { "X-Forwarded-User": "alice" });
    expect(spoofed.status).toBe(401);
  });

  it("signs an admin in; /api/me shows the roles and what they allow", async () => {
    admin = await signIn(url, "alice");
    const me = await api<{
      user: { id: string; name: string; roles: string[] };
      allows: { global: string[] };
    }>(url, admin, "GET", "/api/me");
    expect(me.body.user).toMatchObject({ name: "Alice Admin", roles: ["admin"] });
    expect(me.body.allows.global).toEqual([
      "audit_read",
      "audit_export",
      "session_admin",
      "monitor_read",
      "monitor_write",
    ]);
  });

  it("refuses support a Gift Balance Inquiry and raw exchanges, and shows it no token details", async () => {
    const sam = await signIn(url, "sam");
    const gift = await api<{ error: { code: string; details: { allowed_roles: string[] } } }>(
      url,
      sam,
      "POST",
      "/api/inquiries/gift-balance",
      inquiry("embedded"),
    );
    expect(gift.status).toBe(403);
    expect(gift.body.error.code).toBe("forbidden_by_role");
    expect(gift.body.error.details.allowed_roles).not.toContain("support");
    const token = await api(url, sam, "POST", "/api/token", {});
    expect(token.status).toBe(403);
    const session = await api<{ token: unknown }>(url, sam, "GET", "/api/session");
    expect(session.status).toBe(200);
    expect(session.body.token).toBeNull();
  });

  it("lets an engineer run Balance Inquiry in production but refuses the Gift Balance Inquiry there", async () => {
    const eve = await signIn(url, "eve");
    expect(
      (await api(url, eve, "PUT", "/api/session/environment", { environment: "production" })).status,
    ).toBe(200);
    const balance = await api<{ response: { status: number } }>(
      url,
      eve,
      "POST",
      "/api/inquiries/balance",
      inquiry("production"),
    );
    expect(balance.status).toBe(200);
    expect(balance.body.response.status).toBe(200);
    const gift = await api(url, eve, "POST", "/api/inquiries/gift-balance", inquiry("production"));
    expect(gift.status).toBe(403);
    // In the embedded sandbox the engineer may do everything.
    await api(url, eve, "PUT", "/api/session/environment", { environment: "embedded" });
    const embedded = await api<{ response: { status: number } }>(
      url,
      eve,
      "POST",
      "/api/inquiries/gift-balance",
      inquiry("embedded"),
    );
    expect(embedded.body.response.status).toBe(201);
  });

  it("limits a user's upstream calls per minute: 429 rate_limited with Retry-After", async () => {
    const tess = await signIn(url, "tess");
    const answers = [];
    // The fixed window may roll over once during the loop: twice the limit always reaches it.
    for (let call = 0; call < RATE_LIMIT * 2 + 1; call++) {
      const answer = await api(url, tess, "POST", "/api/inquiries/balance", inquiry("embedded"));
      answers.push(answer);
      if (answer.status === 429) break;
    }
    const refused = answers.at(-1)!;
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: "rate_limited" } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(RATE_LIMIT * 2);
  });

  it("lets a tester run a Gift Balance Inquiry in production, then signs out: the old cookie no longer works", async () => {
    const tester = await signIn(url, "tess");
    const gift = await api<{ response: { status: number } }>(
      url,
      tester,
      "POST",
      "/api/inquiries/gift-balance",
      { ...inquiry("embedded"), card_number: "6006491000000019" },
    );
    // The tester's window may be exhausted by the rate-limit step; either answer is audited.
    expect([200, 429]).toContain(gift.status);
    const copied = tester.header() ?? "";
    const out = await api<{ signed_out: boolean; redirect: string }>(
      url,
      tester,
      "POST",
      "/api/auth/logout",
      {},
    );
    expect(out.status).toBe(200);
    expect(out.body.signed_out).toBe(true);
    expect(out.body.redirect).toMatch(new RegExp(`^${team.provider.issuer}/`));
    const reused = await api(url, null, "GET", "/api/session", undefined, { cookie: copied });
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual(NOT_SIGNED_IN);
    expect((await api(url, null, "GET", "/api/me", undefined, { cookie: copied })).body).toEqual({
      user: null,
    });
  });

  it.runIf(backend === "postgres")(
    "ends the session on every instance: sign-out on one, refused on the other",
    async () => {
      const other = team.consoles[1]!.url;
      const engineer = await signIn(url, "eve");
      const copied = engineer.header() ?? "";
      const there = await api<{ user: { name: string } }>(other, null, "GET", "/api/me", undefined, {
        cookie: copied,
      });
      expect(there.body.user.name).toBe("Eve Engineer");
      const balance = await api(other, null, "POST", "/api/inquiries/balance", inquiry("embedded"), {
        cookie: copied,
      });
      expect(balance.status).toBe(200);
      expect((await api(url, engineer, "POST", "/api/auth/logout", {})).status).toBe(200);
      const after = await api(other, null, "GET", "/api/session", undefined, { cookie: copied });
      expect(after.status).toBe(401);
      // The second console writes into the same chain.
      const verify = await api<{ ok: boolean }>(other, null, "GET", "/api/audit/verify", undefined, {
        cookie: admin.header() ?? "",
      });
      expect(verify.body.ok).toBe(true);
    },
  );

  it("keeps every step in the audit log, card masked, with an unbroken chain", async () => {
    const rows = await allAuditRows(url, admin);
    const signedInRoles = new Set(
      rows.filter((row) => row.event === "sign_in").map((row) => row.roles.join()),
    );
    expect(signedInRoles).toEqual(new Set(["admin", "support", "engineer", "tester"]));
    expect(rows.filter((row) => row.event === "sign_in").length).toBeGreaterThanOrEqual(5);
    // Signed-out refusals are summarised per address and minute (test/unit/server/audit/anonymous-refusals.test.ts).
    expect(rows.some((row) => row.event === "refused" && row.reason === "not_signed_in")).toBe(false);
    const supportRefusal = rows.find(
      (row) => row.event === "refused" && row.reason === "forbidden_by_role" && row.roles.includes("support"),
    );
    expect(supportRefusal).toBeDefined();
    expect(rows.some((row) => row.event === "refused" && row.reason === "rate_limited")).toBe(true);
    const production = rows.find(
      (row) => row.event === "balance_inquiry" && row.environment === "production",
    );
    expect(production).toMatchObject({ card: "600649******0001", upstream_status: 200, outcome: "success" });
    expect(production?.card_hash).toMatch(/^[\w-]{43}$/);
    const gift = rows.find((row) => row.event === "gift_balance_inquiry" && row.upstream_status === 201);
    expect(gift?.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows.some((row) => row.event === "sign_out")).toBe(true);
    expect(rows.some((row) => row.event === "audit_read")).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(CARD);
    expect(JSON.stringify(rows)).not.toContain("demo-secret");

    const byCard = await api<{ rows: { card: string }[] }>(url, admin, "GET", `/api/audit?card=${CARD}`);
    expect(byCard.body.rows.length).toBeGreaterThan(0);
    expect(byCard.body.rows.every((row) => row.card === "600649******0001")).toBe(true);

    const csv = await api<string>(url, admin, "GET", "/api/audit/export.csv?event=sign_in");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(csv.body.split("\r\n").filter(Boolean).length).toBeGreaterThan(5);

    const verify = await api<{ ok: boolean; rows: number }>(url, admin, "GET", "/api/audit/verify");
    expect(verify.body).toMatchObject({ ok: true });
    expect(verify.body.rows).toBeGreaterThanOrEqual(rows.length);
    const audited = await allAuditRows(url, admin);
    expect(audited.some((row) => row.event === "audit_verify")).toBe(true);
    expect(audited.some((row) => row.event === "audit_export")).toBe(true);

    const engineerAudit = await api(url, await signIn(url, "eve"), "GET", "/api/audit");
    expect(engineerAudit.status).toBe(403);
  });
});

// Both backends at once: each test is mostly the idle timeout and the lifetime passing.
describe.concurrent.each<Backend>(["pglite", "postgres"])("session expiry on %s", (backend) => {
  const IDLE = 5;
  const TTL = 10;
  let team: Team;
  let url: string;

  beforeAll(async () => {
    team = await startTeam(backend, 1, {
      SESSION_IDLE_SECONDS: String(IDLE),
      SESSION_TTL_SECONDS: String(TTL),
    });
    url = team.consoles[0]!.url;
  });
  afterAll(() => stopTeam(team));

  it("ends a session left idle, and one past its lifetime however active, both audited", async () => {
    const idle = await signIn(url, "eve");
    const active = await signIn(url, "tess");
    const idleSince = Date.now();
    // The idle one is not touched again until its timeout has passed; the active one calls all along.
    const stillSignedIn = async () => {
      const me = await api<{ user: unknown }>(url, active, "GET", "/api/me");
      return me.body.user !== null;
    };
    await vi.waitFor(
      async () => {
        expect(await stillSignedIn()).toBe(true);
        if (Date.now() - idleSince <= (IDLE + 1) * 1000) throw new Error("not idle long enough yet");
      },
      { timeout: (TTL + 10) * 1000, interval: 250 },
    );
    const idleAnswer = await api(url, idle, "GET", "/api/session");
    expect(idleAnswer.status).toBe(401);
    // However active, the session ends at its absolute lifetime.
    await vi.waitFor(
      async () => {
        if (await stillSignedIn()) throw new Error("still signed in");
      },
      { timeout: (TTL + 10) * 1000, interval: 250 },
    );

    const admin = await signIn(url, "alice");
    const ends = (await allAuditRows(url, admin)).filter((row) => row.event === "session_end");
    expect(ends.map((row) => row.reason).sort()).toEqual(["expired", "idle"]);
    const verify = await api<{ ok: boolean }>(url, admin, "GET", "/api/audit/verify");
    expect(verify.body.ok).toBe(true);
  });
});
