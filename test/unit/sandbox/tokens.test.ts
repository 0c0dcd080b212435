import { SignJWT, decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { findDemoClient, type DemoClient } from "@/lib/sandbox/fixtures";
import { TOKEN_AUDIENCE, TOKEN_ISSUER, TokenService } from "@/lib/sandbox/tokens";

const demoClient = findDemoClient("demo-client") as DemoClient;
const shortLived = findDemoClient("demo-short-lived") as DemoClient;
const KEY = "unit-test-key";

function service(start = Date.parse("2030-01-01T00:00:00Z")) {
  const clock = { now: start };
  return { clock, tokens: new TokenService(KEY, () => clock.now) };
}

describe("TokenService", () => {
  it("verifies what it issued and returns the client and scopes", async () => {
    const { tokens } = service();
    const issued = await tokens.issue(demoClient);
    expect(issued).toMatchObject({ expiresIn: 7200, scope: "read:reports read:transactions export:reports" });
    expect(await tokens.verify(issued.accessToken)).toEqual({
      ok: true,
      claims: {
        clientId: "demo-client",
        jti: issued.jti,
        scopes: ["read:reports", "read:transactions", "export:reports"],
      },
    });
  });

  it("expires tokens by the injected clock", async () => {
    const { clock, tokens } = service();
    const issued = await tokens.issue(shortLived);
    clock.now += 59_999;
    expect((await tokens.verify(issued.accessToken)).ok).toBe(true);
    clock.now += 1;
    expect(await tokens.verify(issued.accessToken)).toEqual({
      ok: false,
      reason: "The access token expired.",
    });
  });

  it("rejects tokens not yet valid, with another issuer or audience, or without a jti", async () => {
    const { tokens } = service();
    const key = new TextEncoder().encode(KEY);
    const now = Date.parse("2030-01-01T00:00:00Z") / 1000;
    const build = (issuer: string, audience: string, jti?: string) => {
      const jwt = new SignJWT({ scope: "read:transactions" })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject("demo-client")
        .setIssuedAt(now)
        .setExpirationTime(now + 60);
      return (jti ? jwt.setJti(jti) : jwt).sign(key);
    };
    expect((await tokens.verify(await build(TOKEN_ISSUER, TOKEN_AUDIENCE, "j1"))).ok).toBe(true);
    expect((await tokens.verify(await build("someone-else", TOKEN_AUDIENCE, "j2"))).ok).toBe(false);
    expect((await tokens.verify(await build(TOKEN_ISSUER, "another-api", "j3"))).ok).toBe(false);
    expect((await tokens.verify(await build(TOKEN_ISSUER, TOKEN_AUDIENCE))).ok).toBe(false);
    const hs512 = await new SignJWT({ scope: "read:transactions" })
      .setProtectedHeader({ alg: "HS512" })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject("demo-client")
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .setJti("j4")
      .sign(new TextEncoder().encode(KEY.repeat(8)));
    expect((await tokens.verify(hs512)).ok).toBe(false);
  });

  it("revokes every token issued so far, but not later ones", async () => {
    const { tokens } = service();
    const before = await Promise.all([tokens.issue(demoClient), tokens.issue(shortLived)]);
    tokens.revokeAll();
    const after = await tokens.issue(demoClient);
    for (const issued of before) {
      expect(await tokens.verify(issued.accessToken)).toEqual({
        ok: false,
        reason: "The access token was revoked.",
      });
    }
    expect((await tokens.verify(after.accessToken)).ok).toBe(true);
  });

  it("keeps revocation working after forgetting thousands of expired tokens", async () => {
    const { clock, tokens } = service();
    for (let index = 0; index < 1100; index += 1) await tokens.issue(shortLived);
    clock.now += 61_000;
    const live = await tokens.issue(demoClient); // triggers the pruning of the expired ones
    tokens.revokeAll();
    expect((await tokens.verify(live.accessToken)).ok).toBe(false);
    expect(decodeJwt(live.accessToken).sub).toBe("demo-client");
  });
});
