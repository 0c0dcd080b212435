/**
 * Sessions that end (docs/design.md §6), in-process: the cookie carries a server-side row's id, so forgetting the
 * session ends it for every copy of the cookie; the absolute end is fixed at creation; in proxy mode a session
 * belongs to the one user the proxy named; refusals and credential changes are audited.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as inquiryRoute from "@/app/api/inquiries/gift-balance/route";
import * as meRoute from "@/app/api/me/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as environmentRoute from "@/app/api/session/environment/route";
import * as sessionRoute from "@/app/api/session/route";
import type { SessionInfo } from "@/lib/shared/contracts";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { getServices } from "@/lib/server/root";
import { call, configure, CookieJar, readJson, saveDemoCredentials } from "../support";

const maxAge = (response: Response) =>
  Number(/Max-Age=(\d+)/.exec(response.headers.getSetCookie()[0] ?? "")?.[1] ?? NaN);

describe("AUTH_MODE=none", () => {
  beforeEach(() => {
    configure();
  });

  it("DELETE /api/session ends the session for a copied cookie too, and audits it", async () => {
    const jar = new CookieJar();
    await saveDemoCredentials(jar);
    const copied = jar.header() ?? "";
    expect(copied).toMatch(/csc_session=/);
    const forgotten = await call(sessionRoute.DELETE, "DELETE", "/api/session", {}, jar);
    expect(forgotten.status).toBe(200);
    expect(forgotten.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
    const reused = await call(sessionRoute.GET, "GET", "/api/session", { headers: { cookie: copied } });
    expect((await readJson<SessionInfo>(reused)).credentials.source).toBe("none");
    expect(reused.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
    const { auditLog } = await getServices();
    const events = (await auditLog.query({ limit: 5 })).rows.map((row) => row.event);
    expect(events).toContain("session_end");
    expect(events).toContain("credentials_set");
  });

  it("never extends the absolute lifetime when the environment or credentials change", async () => {
    const jar = new CookieJar();
    const first = await saveDemoCredentials(jar);
    const initial = maxAge(first);
    expect(initial).toBeGreaterThan(0);
    const row = (await getServices()).sessionStore;
    const sessionId = await sessionIdOf(jar);
    const stored = await row.getIfLive(sessionId);
    const changed = await call(
      environmentRoute.PUT,
      "PUT",
      "/api/session/environment",
      { body: { environment: "embedded" } },
      jar,
    );
    const again = await call(
      credentialsRoute.PUT,
      "PUT",
      "/api/session/credentials",
      { body: { client_id: "demo-client", client_secret: "demo-secret" } },
      jar,
    );
    expect(again.status).toBe(200);
    for (const response of [changed, again]) {
      if (response.headers.getSetCookie().length > 0) expect(maxAge(response)).toBeLessThanOrEqual(initial);
    }
    expect((await row.getIfLive(await sessionIdOf(jar)))?.expiresAt).toEqual(stored?.expiresAt);
  });

  it("answers /api/me with the local user and every role", async () => {
    const me = await readJson<{ user: { id: string; roles: string[] } }>(
      await call(meRoute.GET, "GET", "/api/me"),
    );
    expect(me.user.id).toBe("local");
    expect(me.user.roles).toEqual(["support", "engineer", "tester", "admin"]);
  });
});

/** The row id inside the sealed cookie, read the way the server does. */
async function sessionIdOf(jar: CookieJar): Promise<string> {
  const { getSession } = await import("@/lib/server/session");
  const session = await getSession(
    new Request("http://localhost:3000/api/session", { headers: { cookie: jar.header() ?? "" } }),
    (await getServices()).sessions,
  );
  if (!session.sessionId) throw new Error("no live session");
  return session.sessionId;
}

describe("AUTH_MODE=proxy", () => {
  const SECRET = "proxy-shared-secret-for-unit-tests";
  beforeEach(() => {
    configure({
      AUTH_MODE: "proxy",
      HOSTNAME: "127.0.0.1",
      TRUSTED_PROXIES: "127.0.0.1/32",
      PROXY_SHARED_SECRET: SECRET,
      ROLE_GROUPS: "support:support-desk,tester:certification",
    });
    setPeerHeaderStamped(true);
  });
  afterEach(() => setPeerHeaderStamped(false));

  const as = (user: string, groups: string, peer = "127.0.0.1") => ({
    [PEER_ADDRESS_HEADER]: peer,
    "X-Forwarded-User": user,
    "X-Forwarded-Groups": groups,
    "X-Proxy-Secret": SECRET,
  });

  it("gives another user a fresh session: user B never uses user A's credentials", async () => {
    const jar = new CookieJar();
    const set = await saveDemoCredentials(jar, as("tess", "certification"));
    expect(set.status).toBe(200);
    const mine = await call(
      sessionRoute.GET,
      "GET",
      "/api/session",
      { headers: as("tess", "certification") },
      jar,
    );
    expect((await readJson<SessionInfo>(mine)).credentials.source).toBe("session");
    const other = await call(
      sessionRoute.GET,
      "GET",
      "/api/session",
      { headers: as("mallory", "certification") },
      jar,
    );
    expect((await readJson<SessionInfo>(other)).credentials.source).toBe("none");
  });

  it("refuses a spoofed identity from an untrusted peer (401) and a role's forbidden action (403), audited", async () => {
    const spoofed = await call(sessionRoute.GET, "GET", "/api/session", {
      headers: as("tess", "certification", "10.1.2.3"),
    });
    expect(spoofed.status).toBe(401);
    expect((await readJson<{ error: { code: string } }>(spoofed)).error.code).toBe("not_signed_in");
    const gift = await call(inquiryRoute.POST, "POST", "/api/inquiries/gift-balance", {
      body: { card_number: "6006491000000001", location_id: "store-1" },
      headers: as("sam", "support-desk"),
    });
    expect(gift.status).toBe(403);
    const body = await readJson<{ error: { code: string; details: { allowed_roles: string[] } } }>(gift);
    expect(body.error.code).toBe("forbidden_by_role");
    expect(body.error.details.allowed_roles).toContain("tester");
    const { auditLog } = await getServices();
    const [refusal] = (await auditLog.query({ event: "refused", userId: "sam", limit: 1 })).rows;
    expect(refusal?.reason).toBe("forbidden_by_role");
    expect(refusal?.roles).toEqual(["support"]);
  });
});
