/**
 * The encrypted session cookie: flags over http and https, password rotation, expiry, tampering, the
 * 4 KB bound with the largest realistic token, and writing only on change.
 */
import { SignJWT } from "jose";
import { beforeEach, describe, expect, it } from "vitest";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as sessionRoute from "@/app/api/session/route";
import type { SessionInfo } from "@/lib/shared/contracts";
import type { AccessToken } from "@/lib/server/session";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { MAX_SET_COOKIE_BYTES } from "@/lib/server/session/cookie";
import { call, configure, CookieJar, openSession, ORIGIN, readJson } from "../support";

const OLD_SECRET = "old-session-secret-0123456789-abcdefghij";
const NEW_SECRET = "new-session-secret-0123456789-abcdefghij";

beforeEach(() => {
  configure();
});

async function demoCookie(
  options: { headers?: Record<string, string>; base?: string } = {},
): Promise<string> {
  const response = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", {
    body: { profile: "demo" },
    ...options,
  });
  expect(response.status).toBe(200);
  const [cookie = ""] = response.headers.getSetCookie();
  return cookie;
}

const cookiePair = (setCookie: string) => setCookie.split(";")[0] ?? "";

async function sessionSource(cookie: string, base = ORIGIN): Promise<string> {
  const response = await call(sessionRoute.GET, "GET", "/api/session", { headers: { cookie }, base });
  return (await readJson<SessionInfo>(response)).credentials.source;
}

/** A JWT as large as real identity providers issue (RS256, many claims): about 1,500 characters. */
async function largeRealisticToken(): Promise<string> {
  const key = new TextEncoder().encode("k".repeat(64));
  const jwt = await new SignJWT({
    scope: "read:reports read:transactions export:reports write:transactions admin:cards read:locations",
    client_id: "a-rather-long-client-identifier-issued-at-onboarding-0123456789",
    roles: ["integration", "certification", "support"],
    tenant: "00000000-1111-2222-3333-444444444444",
    program: "gift-and-loyalty-program-with-a-long-name",
    locations: Array.from({ length: 12 }, (_, index) => `location-${index}-abcdef`),
  })
    .setProtectedHeader({ alg: "HS512", typ: "JWT", kid: "signing-key-2026-11-rotation-a" })
    .setIssuer("https://auth.card-services.example/reporting/v1")
    .setAudience("https://api.card-services.example/transaction/v1")
    .setSubject("client-0123456789abcdef")
    .setJti("7d0c1a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4b")
    .setIssuedAt()
    .setExpirationTime("2h")
    .sign(key);
  // Pad the signature part to an RS256-sized one (342 characters): the longest common signature.
  const [header, payload] = jwt.split(".");
  return `${header}.${payload}.${"s".repeat(342)}`;
}

function tokenOf(accessToken: string): AccessToken {
  return {
    accessToken,
    tokenType: "Bearer",
    scope: "read:reports read:transactions export:reports",
    expiresIn: 7200,
    issuedAt: Date.now(),
    credentialsKey: "k".repeat(32),
    meta: {
      timestamp: new Date().toISOString(),
      request_id: "req-17953109459860001-8b7cb0aa",
      version: "1.4.0",
    },
    jsonapi: { version: "1.0" },
  };
}

describe("cookie flags", () => {
  it("over http: plain name, HttpOnly, SameSite=Lax, Path=/, Max-Age, no Secure", async () => {
    const cookie = await demoCookie();
    expect(cookie).toMatch(/^csc_session=/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).toContain("Max-Age=28800");
    expect(cookie).not.toContain("Secure");
    expect(cookie).not.toContain("Domain");
  });

  it("over https (direct or via a trusted proxy's X-Forwarded-Proto): __Host- name and Secure", async () => {
    configure({ PUBLIC_URL: "https://console.example,http://localhost:3000", TRUSTED_PROXIES: "127.0.0.1" });
    const direct = await demoCookie({ base: "https://console.example" });
    setPeerHeaderStamped(true);
    let proxied: string;
    let untrusted: string;
    try {
      proxied = await demoCookie({
        headers: {
          "x-forwarded-proto": "https",
          origin: "https://localhost:3000",
          [PEER_ADDRESS_HEADER]: "127.0.0.1",
        },
      });
      untrusted = await demoCookie({
        headers: {
          "x-forwarded-proto": "https",
          origin: "http://localhost:3000",
          [PEER_ADDRESS_HEADER]: "10.9.9.9",
        },
      });
    } finally {
      setPeerHeaderStamped(false);
    }
    expect(untrusted).toMatch(/^csc_session=/);
    for (const cookie of [direct, proxied]) {
      expect(cookie).toMatch(/^__Host-csc_session=/);
      expect(cookie).toContain("; Secure");
      expect(cookie).toContain("Path=/");
      expect(cookie).not.toContain("Domain");
    }
    expect(await sessionSource(cookiePair(direct), "https://console.example")).toBe("session");
  });

  it("uses the configured TTL", async () => {
    configure({ SESSION_TTL_SECONDS: "600" });
    expect(await demoCookie()).toContain("Max-Age=600");
  });
});

describe("password rotation", () => {
  it("opens cookies sealed with an older password and reseals them with the newest", async () => {
    configure({ SESSION_SECRET: OLD_SECRET });
    const old = cookiePair(await demoCookie());
    configure({ SESSION_SECRET: `${NEW_SECRET},${OLD_SECRET}` });
    const response = await call(sessionRoute.GET, "GET", "/api/session", { headers: { cookie: old } });
    expect((await readJson<SessionInfo>(response.clone())).credentials.source).toBe("session");
    const [resealed = ""] = response.headers.getSetCookie();
    expect(resealed).toMatch(/^csc_session=Fe26/);
    // Once the old password is dropped, the old cookie is an empty session but the resealed one still opens.
    configure({ SESSION_SECRET: NEW_SECRET });
    expect(await sessionSource(old)).toBe("none");
    expect(await sessionSource(cookiePair(resealed))).toBe("session");
  });

  it("does not open a cookie sealed with an unknown password", async () => {
    configure({ SESSION_SECRET: OLD_SECRET });
    const old = cookiePair(await demoCookie());
    configure({ SESSION_SECRET: NEW_SECRET });
    expect(await sessionSource(old)).toBe("none");
  });
});

describe("expiry and validation", () => {
  it("treats a session past its TTL as empty", async () => {
    const session = await openSession(new Request(`${ORIGIN}/api/session`));
    session.update({ credentials: { kind: "demo" } });
    const jar = new CookieJar();
    jar.store(await session.commit(new Response()));
    expect(await sessionSource(jar.header() ?? "")).toBe("session");
    const realNow = Date.now;
    Date.now = () => realNow() + 28_801_000;
    try {
      expect(await sessionSource(jar.header() ?? "")).toBe("none");
    } finally {
      Date.now = realNow;
    }
  });

  it("treats a validly sealed cookie with an unexpected shape as empty", async () => {
    const { sealData } = await import("iron-session");
    const { TEST_SESSION_SECRET } = await import("../support");
    for (const data of [
      { v: 2 },
      { v: 1, exp: Date.now() + 60_000, cred: { k: "root" } },
      { hello: "world" },
    ]) {
      const value = await sealData(data, { password: { 1: TEST_SESSION_SECRET }, ttl: 600 });
      expect(await sessionSource(`csc_session=${value}`)).toBe("none");
    }
  });
});

describe("size", () => {
  it(`stays under ${MAX_SET_COOKIE_BYTES} bytes with the longest credentials and a large realistic token`, async () => {
    const accessToken = await largeRealisticToken();
    expect(accessToken.length).toBeGreaterThan(1200);
    const session = await openSession(new Request("https://console.example/api/session"));
    session.update({
      environment: "production",
      credentials: { kind: "user", clientId: "c".repeat(200), clientSecret: "s".repeat(500) },
      token: tokenOf(accessToken),
    });
    const response = await session.commit(new Response());
    const [setCookie = ""] = response.headers.getSetCookie();
    expect(setCookie).toMatch(/^__Host-csc_session=/);
    expect(setCookie.length).toBeLessThan(MAX_SET_COOKIE_BYTES);
    const reopened = await openSession(
      new Request("https://console.example/api/session", { headers: { cookie: cookiePair(setCookie) } }),
    );
    expect(reopened.state.token?.accessToken).toBe(accessToken);
  });

  it("refuses with 502 token_too_large rather than writing a cookie browsers would drop", async () => {
    const session = await openSession(new Request(`${ORIGIN}/api/session`));
    session.update({ credentials: { kind: "demo" }, token: tokenOf("x".repeat(4000)) });
    await expect(session.commit(new Response())).rejects.toMatchObject({
      code: "token_too_large",
      status: 502,
    });
  });
});

describe("writes", () => {
  it("writes nothing for an unchanged session and nothing for a new visitor who changed nothing", async () => {
    const cookie = cookiePair(await demoCookie());
    const unchanged = await call(sessionRoute.GET, "GET", "/api/session", { headers: { cookie } });
    expect(unchanged.headers.getSetCookie()).toEqual([]);
    const fresh = await call(sessionRoute.GET, "GET", "/api/session");
    expect(fresh.headers.getSetCookie()).toEqual([]);
  });

  it("writes when a value really changed, not when it was set to the same value", async () => {
    const session = await openSession(new Request(`${ORIGIN}/api/session`));
    session.update({ environment: "embedded" });
    expect(session.isChanged).toBe(true);
    const jar = new CookieJar();
    jar.store(await session.commit(new Response()));
    const again = await openSession(
      new Request(`${ORIGIN}/api/session`, { headers: { cookie: jar.header() ?? "" } }),
    );
    again.update({ environment: "embedded" });
    expect(again.isChanged).toBe(false);
  });
});
