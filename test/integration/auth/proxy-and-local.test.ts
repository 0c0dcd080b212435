/**
 * AUTH_MODE=proxy and AUTH_MODE=none on the production build. The test reaches the console from 127.0.0.1, so
 * one console that lists loopback in TRUSTED_PROXIES plays "behind the trusted proxy" and one that does not plays
 * "reached directly by a client that forges the proxy's headers".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { proxyConsoleEnv, proxyIdentity } from "@/test/support/proxy-console";
import { api } from "./team-console.support";

const SECRET = "proxy-shared-secret-for-integration";
/** A proxy console whose trusted peers are `trustedProxies`. */
const proxyEnv = (trustedProxies: string) =>
  proxyConsoleEnv({
    secret: SECRET,
    roleGroups: "tester:certification,support:support-desk",
    env: { TRUSTED_PROXIES: trustedProxies },
  });
const identity = (user: string, groups: string, secret = SECRET) => proxyIdentity(secret)(user, groups);
const CARD = { card_number: "6006491000000001", location_id: "store-1" };

describe("AUTH_MODE=proxy", () => {
  let trusted: ConsoleServer;
  let direct: ConsoleServer;
  beforeAll(async () => {
    [trusted, direct] = await Promise.all([
      startConsole(proxyEnv("127.0.0.1/32,::1/128")),
      startConsole(proxyEnv("10.0.0.0/8")),
    ]);
  });
  afterAll(async () => {
    await Promise.all([trusted?.stop(), direct?.stop()]);
  });

  it("believes the identity headers from a trusted peer with the shared secret", async () => {
    const me = await api<{ user: { id: string; roles: string[]; signed_in_with: string } }>(
      trusted.url,
      null,
      "GET",
      "/api/me",
      undefined,
      identity("tess", "certification"),
    );
    expect(me.body.user).toMatchObject({ id: "tess", roles: ["tester"], signed_in_with: "proxy" });
    const balance = await api(trusted.url, null, "POST", "/api/inquiries/balance", CARD, {
      ...identity("tess", "certification"),
    });
    expect(balance.status).toBe(401); // no credentials yet: the tester has not chosen any
    const demo = await api(
      trusted.url,
      null,
      "PUT",
      "/api/session/credentials",
      { profile: "demo" },
      {
        ...identity("tess", "certification"),
      },
    );
    expect(demo.status).toBe(200);
    const support = await api(trusted.url, null, "POST", "/api/inquiries/gift-balance", CARD, {
      ...identity("sam", "support-desk"),
    });
    expect(support.status).toBe(403);
  });

  it("does not believe them without the secret, or from a peer that is not a trusted proxy", async () => {
    const wrongSecret = await api(trusted.url, null, "GET", "/api/me", undefined, {
      ...identity("tess", "certification", "not-the-shared-secret"),
    });
    expect(wrongSecret.body).toEqual({ user: null });
    const spoofed = await api(
      direct.url,
      null,
      "GET",
      "/api/me",
      undefined,
      identity("tess", "certification"),
    );
    expect(spoofed.body).toEqual({ user: null });
    const refused = await api(
      direct.url,
      null,
      "GET",
      "/api/session",
      undefined,
      identity("tess", "certification"),
    );
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: "not_signed_in" } });
  });
});

describe("AUTH_MODE=none", () => {
  let local: ConsoleServer;
  beforeAll(async () => {
    local = await startConsole({});
  });
  afterAll(() => local?.stop());

  it("DELETE /api/session ends the session for a copied cookie too", async () => {
    const set = await fetch(`${local.url}/api/session/credentials`, {
      method: "PUT",
      headers: { "content-type": "application/json", origin: local.url },
      body: JSON.stringify({ profile: "demo" }),
    });
    expect(set.status).toBe(200);
    const cookie = (set.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
    const before = await api<{ credentials: { source: string } }>(
      local.url,
      null,
      "GET",
      "/api/session",
      undefined,
      {
        cookie,
      },
    );
    expect(before.body.credentials.source).toBe("session");
    const forgotten = await api(local.url, null, "DELETE", "/api/session", undefined, { cookie });
    expect(forgotten.status).toBe(200);
    const copy = await api<{ credentials: { source: string } }>(
      local.url,
      null,
      "GET",
      "/api/session",
      undefined,
      {
        cookie,
      },
    );
    expect(copy.body.credentials.source).toBe("none");
  });
});
