/**
 * Ending and suspending behind a reverse proxy (AUTH_MODE=proxy), two console processes on one PostgreSQL. The
 * proxy signs its users in on every request, so an admin's "End session" is answered once (401 `not_signed_in`,
 * `session_end: "revoked"`, the cookie removed) and the next request makes a fresh session, audited `sign_in`; a
 * suspension keeps the user out (403 `user_suspended`) on every instance until it is lifted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { startPostgres, type PostgresCluster } from "@/test/support/postgres";
import { proxyConsoleEnv, proxyIdentity } from "@/test/support/proxy-console";
import { CookieJar } from "./provider-driver";
import { AUDIT_HMAC_KEY, api } from "./team-console.support";

const SECRET = "proxy-shared-secret-for-integration";
const identity = proxyIdentity(SECRET);
const ADMIN = identity("ada", "console-admins");
const TESS = identity("tess", "certification");
const SAM = identity("sam", "certification,support-desk");

interface AuditRow {
  user_id: string | null;
  event: string;
  reason: string | null;
  client_address: string | null;
  details: Record<string, unknown> | null;
}

let cluster: PostgresCluster;
let first: ConsoleServer;
let second: ConsoleServer;

beforeAll(async () => {
  cluster = await startPostgres();
  const env = proxyConsoleEnv({
    secret: SECRET,
    roleGroups: "admin:console-admins,tester:certification,support:support-desk",
    env: {
      DATABASE_URL: cluster.createDatabase(),
      AUDIT_HMAC_KEY,
      SESSION_SECRET: "proxy-session-end-test-session-secret-32+",
    },
  });
  [first, second] = await Promise.all([startConsole(env), startConsole(env)]);
});
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await cluster?.stop();
});

async function auditRows(event: string, user: string): Promise<AuditRow[]> {
  const page = await api<{ rows: AuditRow[] }>(
    first.url,
    null,
    "GET",
    `/api/audit?event=${event}&user=${user}&limit=500`,
    undefined,
    ADMIN,
  );
  expect(page.status).toBe(200);
  return page.body.rows;
}

/** A session of `headers`' user that holds the demo credentials (so it has a row), in a jar of its own. */
async function sessionOf(headers: Record<string, string>): Promise<CookieJar> {
  const jar = new CookieJar();
  const demo = await api(first.url, jar, "PUT", "/api/session/credentials", { profile: "demo" }, headers);
  expect(demo.status).toBe(200);
  expect(jar.header()).toBeDefined();
  return jar;
}

describe("AUTH_MODE=proxy: ending a session, suspending a user", () => {
  it("a proxy session's creation is a sign_in row, with where from and how", async () => {
    await sessionOf(TESS);
    const [signIn] = await auditRows("sign_in", "tess");
    expect(signIn).toMatchObject({
      user_id: "tess",
      client_address: "127.0.0.1",
      details: { signed_in_with: "proxy" },
    });
  });

  it("End session: the old cookie's next call is 401 revoked once, then a fresh session with a sign_in row", async () => {
    const jar = await sessionOf(TESS);
    const before = (await auditRows("sign_in", "tess")).length;
    const list = await api<{ sessions: { id: string; user_id: string }[] }>(
      first.url,
      null,
      "GET",
      "/api/admin/sessions",
      undefined,
      ADMIN,
    );
    const handles = list.body.sessions.filter((session) => session.user_id === "tess");
    for (const { id } of handles) {
      const ended = await api(first.url, null, "DELETE", `/api/admin/sessions/${id}`, undefined, ADMIN);
      expect(ended.status).toBe(200);
    }

    const told = await api<{ error: { code: string; details: unknown } }>(
      first.url,
      jar,
      "GET",
      "/api/session",
      undefined,
      TESS,
    );
    expect(told.status).toBe(401);
    expect(told.body.error).toMatchObject({ code: "not_signed_in", details: { session_end: "revoked" } });
    expect(jar.header()).toBeUndefined();

    const after = await api<{ credentials: unknown }>(first.url, jar, "GET", "/api/session", undefined, TESS);
    expect(after.status).toBe(200);
    // The ended session's credentials are gone with it.
    expect(after.body.credentials).toMatchObject({ source: "none" });
    await sessionOf(TESS);
    expect(await auditRows("sign_in", "tess")).toHaveLength(before + 1);
  });

  it("a suspension refuses the user on every instance until it is lifted, all of it audited", async () => {
    const jar = await sessionOf(SAM);
    // Each instance has now seen Sam allowed: the suspension must reach what they remember.
    for (const server of [first, second])
      expect((await api(server.url, null, "GET", "/api/me", undefined, SAM)).status).toBe(200);
    const bad = await api(
      first.url,
      null,
      "POST",
      "/api/admin/suspensions",
      { user_id: "sam", minutes: 0 },
      ADMIN,
    );
    expect(bad.status).toBe(400);
    const self = await api(
      first.url,
      null,
      "POST",
      "/api/admin/suspensions",
      { user_id: "ada", minutes: 5 },
      ADMIN,
    );
    expect(self.status).toBe(400);

    const suspended = await api<{ sessions_ended: number; suspension: { until: string } }>(
      first.url,
      null,
      "POST",
      "/api/admin/suspensions",
      { user_id: "sam", minutes: 30, reason: "TICKET-9" },
      ADMIN,
    );
    expect(suspended.status).toBe(201);
    expect(suspended.body.sessions_ended).toBe(1);

    for (const [server, path, cookies] of [
      [first, "/api/session", jar],
      [first, "/api/me", null],
      [second, "/api/session", null],
      [second, "/api/support/batches", null],
    ] as const) {
      const refused = await api<{ error: { code: string; details: { until: string } } }>(
        server.url,
        cookies,
        "GET",
        path,
        undefined,
        SAM,
      );
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: "user_suspended",
        details: { until: suspended.body.suspension.until },
      });
    }
    const listed = await api<{ suspensions: { user_id: string; reason: string }[]; auth_mode: string }>(
      second.url,
      null,
      "GET",
      "/api/admin/suspensions",
      undefined,
      ADMIN,
    );
    expect(listed.body).toMatchObject({
      auth_mode: "proxy",
      suspensions: [{ user_id: "sam", reason: "TICKET-9" }],
    });

    const lifted = await api(second.url, null, "DELETE", "/api/admin/suspensions/sam", undefined, ADMIN);
    expect(lifted.status).toBe(200);
    for (const server of [first, second]) {
      const allowed = await api(server.url, null, "GET", "/api/session", undefined, SAM);
      expect(allowed.status).toBe(200);
    }
    const again = await api(first.url, null, "DELETE", "/api/admin/suspensions/sam", undefined, ADMIN);
    expect(again.status).toBe(404);

    expect(await auditRows("user_suspended", "ada")).toMatchObject([
      { reason: "TICKET-9", details: { suspended: "sam", minutes: 30, sessions_ended: 1 } },
    ]);
    expect(await auditRows("user_unsuspended", "ada")).toMatchObject([{ details: { suspended: "sam" } }]);
    const refusals = await auditRows("refused", "sam");
    expect(refusals.filter((row) => row.reason === "user_suspended")).toHaveLength(4);
  });
});
