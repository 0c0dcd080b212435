/**
 * The token broker alone, with an injected clock and a scripted client: reuse, renewal inside the margin, the event for an already expired token, single-flight, and
 * after a 401 the reuse of a shared token only when it was asked for after the rejected call started.
 */
import { describe, expect, it } from "vitest";
import type { CardApiClient } from "@/lib/server/card-api/client";
import { TokenBroker } from "@/lib/server/token/broker";
import type { AccessToken } from "@/lib/server/session";

const HOUR = 3_600_000;

/** A client whose token endpoint answers when the test releases it, numbering its tokens. */
function scriptedClient() {
  let issued = 0;
  const waiting: (() => void)[] = [];
  let manual = false;
  const client = {
    urls: {} as CardApiClient["urls"],
    async requestToken() {
      if (manual) await new Promise<void>((resolve) => waiting.push(resolve));
      issued += 1;
      return {
        exchange: {
          request: { method: "POST", url: "http://auth/token", headers: {}, body: null },
          response: { status: 200, headers: {}, body: "", truncated: false },
          startedAt: 0,
          durationMs: 1,
        },
        check: { isJson: true, value: {}, data: null, issues: [] },
        grant: {
          accessToken: `token-${issued}`,
          tokenType: "Bearer",
          scope: "read:transactions",
          expiresIn: 7200,
          meta: null,
          jsonapi: null,
        },
      };
    },
  } as unknown as CardApiClient;
  return {
    client,
    issued: () => issued,
    hold: () => void (manual = true),
    release: () => waiting.splice(0).forEach((resolve) => resolve()),
  };
}

function setup() {
  let clock = 10 * HOUR;
  const scripted = scriptedClient();
  const broker = new TokenBroker(120, () => clock);
  const context = {
    client: scripted.client,
    environment: {
      name: "sandbox" as const,
      authUrl: "http://auth",
      baseUrl: "http://base",
      transport: "http" as const,
    },
    credentials: { source: "session" as const, clientId: "c", clientSecret: "s", key: "key-1" },
  };
  return {
    broker,
    context,
    scripted,
    now: () => clock,
    advance: (ms: number) => void (clock += ms),
  };
}

describe("TokenBroker", () => {
  it("keeps a fresh token, renews inside the margin, and says so", async () => {
    const { broker, context, advance, scripted } = setup();
    const first = await broker.ensure(context, undefined);
    expect(first.event?.type).toBe("acquired");
    const again = await broker.ensure(context, first.token);
    expect(again.token).toBe(first.token);
    expect(again.event).toBeUndefined();

    advance(7200_000 - 60_000); // 60 s left: inside the 120 s margin
    const renewed = await broker.ensure(context, first.token);
    expect(renewed.event?.type).toBe("renewed_before_expiry");
    expect(renewed.event?.detail).toMatch(/within the renewal margin/);
    expect(renewed.token.accessToken).not.toBe(first.token.accessToken);
    expect(scripted.issued()).toBe(2);
  });

  it("says that a token had already expired, not that it was renewed within the margin", async () => {
    const { broker, context, advance } = setup();
    const first = await broker.ensure(context, undefined);
    advance(3 * HOUR);
    const renewed = await broker.ensure(context, first.token);
    expect(renewed.event?.detail).toMatch(/had expired at/);
    expect(renewed.event?.detail).not.toMatch(/within the renewal margin/);
  });

  it("shares one token request among concurrent callers", async () => {
    const { broker, context, scripted } = setup();
    scripted.hold();
    const calls = [1, 2, 3].map(() => broker.ensure(context, undefined));
    scripted.release();
    const tokens = await Promise.all(calls);
    expect(new Set(tokens.map(({ token }) => token.accessToken)).size).toBe(1);
    expect(scripted.issued()).toBe(1);
  });

  it("after a 401 does not reuse a shared token asked for before the rejected call started", async () => {
    const { broker, context, scripted, advance, now } = setup();
    // Call A holds token-1; call B renews and shares token-2 a moment before call A's request starts.
    const a = await broker.ensure(context, undefined);
    const shared = await broker.renewAfterRejection(context, a.token, now());
    expect(shared.token.accessToken).toBe("token-2");
    advance(1000);
    const rejectedCallStarted = now();
    // Call A's request, sent with token-1 after token-2 existed, is rejected: token-2 may be revoked too.
    const retry = await broker.renewAfterRejection(context, a.token, rejectedCallStarted);
    expect(retry.token.accessToken).toBe("token-3");
    expect(scripted.issued()).toBe(3);
  });

  it("after a 401 reuses a token another call obtained after the rejected call started", async () => {
    const { broker, context, scripted, advance, now } = setup();
    const first = await broker.ensure(context, undefined);
    const rejectedCallStarted = now();
    advance(500);
    // Another call, also rejected, renewed first.
    const other = await broker.renewAfterRejection(context, first.token, rejectedCallStarted);
    advance(500);
    const mine: { token: AccessToken; event?: { detail?: string } } = await broker.renewAfterRejection(
      context,
      first.token,
      rejectedCallStarted,
    );
    expect(mine.token.accessToken).toBe(other.token.accessToken);
    expect(mine.event?.detail).toMatch(/just obtained/);
    expect(scripted.issued()).toBe(2);
  });

  it("never hands back the rejected token itself", async () => {
    const { broker, context } = setup();
    const first = await broker.ensure(context, undefined);
    const renewed = await broker.renewAfterRejection(context, first.token, 0);
    expect(renewed.token.accessToken).not.toBe(first.token.accessToken);
  });
});

describe("a token response that echoes the secret or the token", () => {
  it("keeps neither, nor their base64, in the meta and jsonapi shown with the token's details", async () => {
    const secret = "server-client-secret-1";
    const token = "opaque-token-abcdef";
    const echoes = (value: string) => `${value} (${Buffer.from(value).toString("base64")})`;
    const client = {
      urls: {} as CardApiClient["urls"],
      requestToken: async () => ({
        exchange: {
          request: { method: "POST", url: "http://auth/token", headers: {}, body: null },
          response: { status: 200, headers: {}, body: "", truncated: false },
          startedAt: 0,
          durationMs: 1,
        },
        check: { isJson: true, value: {}, data: null, issues: [] },
        grant: {
          accessToken: token,
          tokenType: "Bearer",
          scope: "read:transactions",
          expiresIn: 7200,
          meta: { request_id: `${echoes(secret)}, ${echoes(token)}` },
          jsonapi: { version: echoes(secret) },
        },
      }),
    } as unknown as CardApiClient;
    const broker = new TokenBroker(120, () => 10 * HOUR);
    const { token: kept } = await broker.ensure(
      {
        client,
        environment: { name: "sandbox", authUrl: "http://auth", baseUrl: "http://base", transport: "http" },
        credentials: { source: "server", clientId: "c", clientSecret: secret, key: "key-echo" },
      } as Parameters<TokenBroker["ensure"]>[0],
      undefined,
    );
    const shown = JSON.stringify([kept.meta, kept.jsonapi]);
    for (const value of [secret, token]) {
      expect(shown).not.toContain(value);
      expect(shown).not.toContain(Buffer.from(value).toString("base64"));
    }
  });
});
