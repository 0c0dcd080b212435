/**
 * The token lifecycle through the routes, in-process against the embedded sandbox: reuse, renewal ahead
 * of expiry, single-flight under concurrency, renew-once-and-retry-once after a 401 with the same Request
 * Id, no renewal on 403, and the timeout.
 */
import { beforeEach, describe, expect, it } from "vitest";
import * as balanceRoute from "@/app/api/inquiries/balance/route";
import * as giftRoute from "@/app/api/inquiries/gift-balance/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as tokenRoute from "@/app/api/token/route";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import { getSession, type AccessToken } from "@/lib/server/session";
import { getServices } from "@/lib/server/root";
import { call, configure, CookieJar, ORIGIN, readJson } from "../support";

const ACTIVE_CARD = "6006491000000001";
const SLOW_CARD = "6006491000000043";
const sandbox = () => getEmbeddedSandbox();

beforeEach(() => {
  configure();
  sandbox().reset();
});

async function sessionWith(credentials: object): Promise<CookieJar> {
  const jar = new CookieJar();
  const response = await call(
    credentialsRoute.PUT,
    "PUT",
    "/api/session/credentials",
    { body: credentials },
    jar,
  );
  expect(response.status).toBe(200);
  return jar;
}

/** Rewrites the jar's session so that its token looks `ageSeconds` old (the sandbox still accepts it). */
async function ageToken(jar: CookieJar, ageSeconds: number): Promise<AccessToken> {
  const session = await getSession(
    new Request(`${ORIGIN}/api/session`, { headers: { cookie: jar.header() ?? "" } }),
    (await getServices()).sessions,
  );
  const token = session.state.token;
  if (!token) throw new Error("no token in the session");
  session.update({ token: { ...token, issuedAt: token.issuedAt - ageSeconds * 1000 } });
  jar.store(await session.commit(new Response()));
  return token;
}

const balance = (jar: CookieJar, card = ACTIVE_CARD) =>
  call(
    balanceRoute.POST,
    "POST",
    "/api/inquiries/balance",
    { body: { card_number: card, location_id: "L1" } },
    jar,
  );

describe("token lifecycle", () => {
  it("records a token asked for with POST /api/token as a 'requested' token event of its exchange", async () => {
    const jar = await sessionWith({ profile: "demo" });
    const answer = await readJson<{ token: { fingerprint: string }; exchange: ExchangeRecord }>(
      await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar),
    );
    expect(answer.exchange.token_events).toEqual([
      expect.objectContaining({ type: "requested", fingerprint: answer.token.fingerprint }),
    ]);
  });

  it("renews a token that is within the renewal margin before using it", async () => {
    const jar = await sessionWith({ profile: "demo" });
    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    await ageToken(jar, 7200 - 60); // 60 s left, inside the default 120 s margin
    const before = sandbox().stats().tokenRequests;
    const record = await readJson<ExchangeRecord>(await balance(jar));
    expect(record.response.status).toBe(200);
    expect(record.token_events.map((event) => event.type)).toEqual(["renewed_before_expiry"]);
    expect(sandbox().stats().tokenRequests).toBe(before + 1);
  });

  it("keeps using a token outside the margin", async () => {
    const jar = await sessionWith({ profile: "demo" });
    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    await ageToken(jar, 7200 - 600);
    const before = sandbox().stats().tokenRequests;
    const record = await readJson<ExchangeRecord>(await balance(jar));
    expect(record.token_events).toEqual([]);
    expect(sandbox().stats().tokenRequests).toBe(before);
  });

  it("makes exactly one token request for 50 concurrent inquiries that find the token expired", async () => {
    const jar = await sessionWith({ profile: "demo" });
    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    await ageToken(jar, 8000);
    const before = sandbox().stats().tokenRequests;
    const responses = await Promise.all(Array.from({ length: 50 }, () => balance(jar)));
    const records = await Promise.all(responses.map((response) => readJson<ExchangeRecord>(response)));
    expect(records.every((record) => record.response.status === 200)).toBe(true);
    expect(sandbox().stats().tokenRequests).toBe(before + 1);
    const fingerprints = new Set(records.map((record) => record.token_events[0]?.fingerprint));
    expect(fingerprints.size).toBe(1);
  });

  it("renews once after a 401 and retries once with the same X-Request-Id", async () => {
    const jar = await sessionWith({ profile: "demo" });
    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    sandbox().revokeTokens();
    const before = sandbox().stats();
    const response = await call(
      giftRoute.POST,
      "POST",
      "/api/inquiries/gift-balance",
      { body: { card_number: ACTIVE_CARD, location_id: "L1", request_id: "retry-same-id-1" } },
      jar,
    );
    expect(response.status).toBe(200);
    const record = await readJson<ExchangeRecord>(response);
    expect(record.response.status).toBe(201);
    expect(record.request_id).toBe("retry-same-id-1");
    expect(record.request.headers["X-Request-Id"]).toBe("retry-same-id-1");
    expect(record.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
    expect(record.token_events[0]?.detail).toMatch(/same X-Request-Id/);
    expect(record.timings?.retried_ms).toEqual(expect.any(Number));
    const after = sandbox().stats();
    expect(after.tokenRequests).toBe(before.tokenRequests + 1);
    expect(after.transactions).toBe(before.transactions + 1);
    // The renewed token was saved: the next call needs no renewal.
    const next = await readJson<ExchangeRecord>(await balance(jar));
    expect(next.token_events).toEqual([]);
  });

  it("shows the second 401 when the renewed token is refused too: no second retry", async () => {
    const jar = await sessionWith({ profile: "demo" });
    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    // Revoke while the renewal is in flight: the renewed token is refused as well.
    const realHandle = sandbox().handle.bind(sandbox());
    let revokes = 0;
    const original = sandbox().handle;
    const patched = sandbox() as { handle: (request: Request) => Promise<Response> };
    patched.handle = async (request) => {
      const response = await realHandle(request);
      if (request.url.endsWith("/auth/token") && revokes++ < 2) sandbox().revokeTokens();
      return response;
    };
    try {
      sandbox().revokeTokens();
      const before = sandbox().stats().tokenRequests;
      const record = await readJson<ExchangeRecord>(await balance(jar));
      expect(record.response.status).toBe(401);
      expect(record.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
      expect(sandbox().stats().tokenRequests).toBe(before + 1);
    } finally {
      patched.handle = original;
    }
  });

  it("never renews on 403 (valid token, missing scope)", async () => {
    const jar = await sessionWith({ client_id: "demo-reports-only", client_secret: "demo-secret" });
    const before = sandbox().stats().tokenRequests;
    const record = await readJson<ExchangeRecord>(await balance(jar));
    expect(record.response.status).toBe(403);
    expect(record.token_events.map((event) => event.type)).toEqual(["acquired"]);
    expect(sandbox().stats().tokenRequests).toBe(before + 1);
  });

  it("uses at most half the lifetime as margin for short-lived tokens", async () => {
    const jar = await sessionWith({ client_id: "demo-short-lived", client_secret: "demo-secret" });
    const first = await readJson<ExchangeRecord>(await balance(jar));
    expect(first.token_events.map((event) => event.type)).toEqual(["acquired"]);
    const second = await readJson<ExchangeRecord>(await balance(jar));
    expect(second.token_events).toEqual([]);
  });

  it("answers 504 upstream_timeout when the upstream does not answer in time, and records nothing", async () => {
    configure({ CARD_API_TIMEOUT_MS: "300" });
    const jar = await sessionWith({ profile: "demo" });
    const response = await call(
      giftRoute.POST,
      "POST",
      "/api/inquiries/gift-balance",
      { body: { card_number: SLOW_CARD, location_id: "L1", request_id: "slow-1" } },
      jar,
    );
    expect(response.status).toBe(504);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await readJson<{
      error: { code: string; message: string; details: Record<string, unknown> };
    }>(response);
    expect(body.error).toMatchObject({
      code: "upstream_timeout",
      message: expect.stringContaining("300 ms"),
      details: { operation: "gift_balance_inquiry", request_id: "slow-1" },
    });
    expect(sandbox().stats().transactions).toBe(0);
    // The token obtained before the timeout is kept for the next call.
    expect(response.headers.getSetCookie()).toHaveLength(1);
  });
});
