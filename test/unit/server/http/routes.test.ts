/**
 * The console routes called in-process against the embedded sandbox (no build, no socket): each route's
 * success and failure cases, the token lifecycle, and what must never leave the server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as balanceRoute from "@/app/api/inquiries/balance/route";
import * as giftRoute from "@/app/api/inquiries/gift-balance/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as environmentRoute from "@/app/api/session/environment/route";
import * as sessionRoute from "@/app/api/session/route";
import * as tokenRoute from "@/app/api/token/route";
import * as lookupRoute from "@/app/api/transactions/request-id/[id]/route";
import type { ExchangeRecord, SessionInfo, TokenResult } from "@/lib/shared/contracts";
import { captureLogs, type CapturedLogs } from "@/lib/server/util/logger";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import {
  call,
  configure,
  CookieJar,
  demoSession,
  readJson,
  saveDemoCredentials,
  TEST_SESSION_SECRET,
} from "../support";

const ACTIVE_CARD = "6006491000000001";
const INACTIVE_CARD = "6006491000000027";
const FAILING_CARD = "6006491000000035";
const TEXT_CARD = "6006491000000050";
const RATE_LIMITED_CARD = "6006491000000068";
const UNKNOWN_CARD = "6006499999999999";
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

let logs: CapturedLogs;

beforeAll(() => {
  configure();
  logs = captureLogs();
});
afterAll(() => logs.restore());
beforeEach(() => {
  // A fresh configuration also starts a fresh token broker: no token shared from an earlier test.
  configure();
  getEmbeddedSandbox().reset();
});

function inquiry(card = ACTIVE_CARD, extra: Record<string, unknown> = {}) {
  return { body: { card_number: card, location_id: "store-001", ...extra } };
}

/** Everything a browser could see of a response. */
async function visible(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  return `${headers}\n${await response.clone().text()}`;
}

describe("GET /api/session", () => {
  it("describes a new visitor's session without creating a cookie", async () => {
    const response = await call(sessionRoute.GET, "GET", "/api/session");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.getSetCookie()).toEqual([]);
    const info = await readJson<SessionInfo>(response);
    expect(info).toMatchObject({
      environment: "embedded",
      credentials: { source: "none", client_id: null },
      token: null,
    });
    expect(info.environments).toEqual([
      {
        name: "embedded",
        base_url: "http://localhost:3000/sandbox",
        auth_url: "http://localhost:3000/sandbox",
      },
    ]);
  });

  it("treats a tampered or foreign cookie as an empty session, not an error", async () => {
    const jar = await demoSession();
    const [name, value = ""] = [...jar.cookies][0] ?? [];
    // One character of the seal's MAC changed (to a different one: replacing "A" with "A" would change nothing).
    const replaced = value.at(-12) === "A" ? "B" : "A";
    const tampered = value.slice(0, -12) + replaced + value.slice(-11);
    for (const cookie of [
      `${name}=${tampered}`,
      `${name}=garbage`,
      `${name}=Fe26.2**x*y*z`,
      `${name}=${"A".repeat(5000)}`,
    ]) {
      const response = await call(sessionRoute.GET, "GET", "/api/session", { headers: { cookie } });
      expect(response.status).toBe(200);
      expect((await readJson<SessionInfo>(response)).credentials.source).toBe("none");
    }
  });
});

describe("PUT /api/session/credentials", () => {
  it("stores demo credentials in an HttpOnly cookie and never echoes a secret", async () => {
    const jar = new CookieJar();
    const response = await saveDemoCredentials(jar);
    expect(response.status).toBe(200);
    const [cookie = ""] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^csc_session=Fe26\.2\*/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=28800/);
    expect(cookie).not.toMatch(/Secure/);
    const info = await readJson<SessionInfo>(response.clone());
    expect(info.credentials).toEqual({ source: "session", client_id: "demo-client", profile: "demo" });
    expect(await visible(response)).not.toContain("demo-secret");
  });

  it("keeps user credentials in the session only: the secret is in no body, header or log line", async () => {
    const secret = "user-entered-secret-value-0123456789";
    const jar = new CookieJar();
    const response = await call(
      credentialsRoute.PUT,
      "PUT",
      "/api/session/credentials",
      { body: { client_id: "demo-client", client_secret: secret } },
      jar,
    );
    expect(response.status).toBe(200);
    expect((await readJson<SessionInfo>(response.clone())).credentials).toEqual({
      source: "session",
      client_id: "demo-client",
    });
    const token = await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    expect(token.status).toBe(200);
    // The sandbox's demo secret is "demo-secret": this one is refused, but never shown.
    expect((await readJson<TokenResult>(token.clone())).token).toBeNull();
    for (const shown of [await visible(response), await visible(token), logs.text()]) {
      expect(shown).not.toContain(secret);
    }
  });

  it("answers 400 with field details for a malformed body", async () => {
    const cases: [unknown, string][] = [
      [{ client_id: "a" }, "client_secret"],
      [{ client_id: "", client_secret: "s" }, "client_id"],
      [{ profile: "other" }, "profile"],
      [{ client_id: "a", client_secret: "s", extra: 1 }, "extra"],
      [{ client_id: "a\u0000b", client_secret: "s" }, "client_id"],
    ];
    for (const [body, field] of cases) {
      const response = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (
        await readJson<{ error: { code: string; details: { fields: Record<string, string[]> } } }>(response)
      ).error;
      expect(error.code).toBe("validation_failed");
      expect(Object.keys(error.details.fields)).toContain(field);
    }
  });
});

describe("PUT /api/session/environment", () => {
  it("accepts a configured environment and refuses one that is not", async () => {
    const jar = await demoSession();
    const ok = await call(
      environmentRoute.PUT,
      "PUT",
      "/api/session/environment",
      { body: { environment: "embedded" } },
      jar,
    );
    expect(ok.status).toBe(200);
    const refused = await call(
      environmentRoute.PUT,
      "PUT",
      "/api/session/environment",
      { body: { environment: "production" } },
      jar,
    );
    expect(refused.status).toBe(400);
    expect((await readJson<{ error: { code: string } }>(refused)).error.code).toBe("environment_unavailable");
    const invalid = await call(
      environmentRoute.PUT,
      "PUT",
      "/api/session/environment",
      { body: { environment: "mars" } },
      jar,
    );
    expect(invalid.status).toBe(400);
    expect((await readJson<{ error: { code: string } }>(invalid)).error.code).toBe("validation_failed");
  });
});

describe("DELETE /api/session", () => {
  it("forgets credentials and token and removes the cookie", async () => {
    const jar = await demoSession();
    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    const response = await call(sessionRoute.DELETE, "DELETE", "/api/session", {}, jar);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()[0]).toMatch(/^csc_session=; .*Max-Age=0/);
    expect(jar.cookies.size).toBe(0);
    const info = await readJson<SessionInfo>(await call(sessionRoute.GET, "GET", "/api/session", {}, jar));
    expect(info.credentials.source).toBe("none");
    expect(info.token).toBeNull();
  });
});

describe("POST /api/token", () => {
  it("returns token metadata and the exchange, never the token or the secret", async () => {
    const jar = await demoSession();
    const before = getEmbeddedSandbox().stats().tokenRequests;
    const response = await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    expect(response.status).toBe(200);
    expect(getEmbeddedSandbox().stats().tokenRequests).toBe(before + 1);
    const { token, exchange } = await readJson<TokenResult>(response.clone());
    expect(token).toMatchObject({
      token_type: "Bearer",
      scopes: ["read:reports", "read:transactions", "export:reports"],
      expires_in: 7200,
      header: { alg: "HS256", typ: "JWT" },
      claims: { client_id: "demo-client", scope: "read:reports read:transactions export:reports" },
      jsonapi: { version: expect.any(String) },
      meta: { request_id: expect.stringMatching(/^req-\d+-\w+$/) },
    });
    expect(token?.fingerprint).toMatch(/^[0-9a-f]{12}$/);
    expect(Date.parse(token?.expires_at ?? "") - Date.parse(token?.issued_at ?? "")).toBe(7_200_000);
    expect(exchange).toMatchObject({
      operation: "token",
      environment: "embedded",
      request: {
        method: "POST",
        url: "http://localhost:3000/sandbox/reporting/v1/auth/token",
        body: { client_id: "demo-client", client_secret: "[REDACTED]", grant_type: "client_credentials" },
      },
      response: {
        status: 200,
        body: { data: { type: "oauth-token", attributes: { access_token: "[REDACTED]" } } },
      },
    });
    expect(exchange.response.schema_issues).toBeUndefined();
    // The meta request id keeps its digits: it is not a card number.
    expect(JSON.stringify(exchange.response.body)).toContain(String(token?.meta?.request_id));
    const shown = await visible(response);
    expect(shown).not.toMatch(JWT);
    expect(shown).not.toContain("demo-secret");
    expect(shown).not.toContain(TEST_SESSION_SECRET);
    // The session now holds the token: GET /api/session shows the same metadata.
    const info = await readJson<SessionInfo>(await call(sessionRoute.GET, "GET", "/api/session", {}, jar));
    expect(info.token?.fingerprint).toBe(token?.fingerprint);
  });

  it("answers 200 with a null token when the token endpoint refuses the credentials", async () => {
    const jar = new CookieJar();
    await call(
      credentialsRoute.PUT,
      "PUT",
      "/api/session/credentials",
      { body: { client_id: "demo-client", client_secret: "wrong" } },
      jar,
    );
    const response = await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    expect(response.status).toBe(200);
    const { token, exchange } = await readJson<TokenResult>(response);
    expect(token).toBeNull();
    expect(exchange.response.status).toBe(400);
    expect(exchange.request.body).toMatchObject({ client_secret: "[REDACTED]" });
  });

  it("answers 401 no_credentials without credentials", async () => {
    const response = await call(tokenRoute.POST, "POST", "/api/token", { body: {} });
    expect(response.status).toBe(401);
    expect(await readJson(response)).toMatchObject({
      error: { code: "no_credentials", message: expect.any(String) },
    });
  });
});

describe("POST /api/inquiries/balance", () => {
  it("runs Balance Inquiry: the exchange record masks the card everywhere and redacts Authorization", async () => {
    const jar = await demoSession();
    const response = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(), jar);
    expect(response.status).toBe(200);
    const record = await readJson<ExchangeRecord>(response.clone());
    expect(record).toMatchObject({
      operation: "balance_inquiry",
      environment: "embedded",
      request: {
        method: "POST",
        url: "http://localhost:3000/sandbox/transaction/v1/balance-inquiry",
        headers: { Authorization: "Bearer [REDACTED]", "Content-Type": "application/json" },
        body: {
          data: {
            entry_mode: "keyed",
            card_number: "600649******0001",
            pin_mode: "none",
            originator: { location_id: "store-001" },
          },
        },
      },
      response: {
        status: 200,
        body: {
          data: {
            card_number: "600649******0001",
            balances: { gift: "25.00", loyalty: "120.00", punch_rewards: "1.00" },
          },
        },
      },
    });
    expect(record.request_id).toBeUndefined();
    expect(record.response.schema_issues).toBeUndefined();
    expect(record.token_events.map((event) => event.type)).toEqual(["acquired"]);
    expect(record.timings).toMatchObject({ total_ms: expect.any(Number), upstream_ms: record.duration_ms });
    const shown = await visible(response);
    expect(shown).not.toContain(ACTIVE_CARD);
    expect(shown).not.toMatch(JWT);
    // The token obtained on the way is kept: the next inquiry needs no token request.
    const before = getEmbeddedSandbox().stats().tokenRequests;
    const again = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(), jar),
    );
    expect(again.token_events).toEqual([]);
    expect(getEmbeddedSandbox().stats().tokenRequests).toBe(before);
    expect(logs.text()).not.toContain(ACTIVE_CARD);
  });

  it("does not write the cookie when the session did not change", async () => {
    const jar = await demoSession();
    const first = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(), jar);
    expect(first.headers.getSetCookie()).toHaveLength(1); // the new token
    const second = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(), jar);
    expect(second.headers.getSetCookie()).toEqual([]);
  });

  it("passes upstream failures through inside a 200 record", async () => {
    const jar = await demoSession();
    const failing = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(FAILING_CARD), jar),
    );
    expect(failing.response.status).toBe(500);
    const limited = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(RATE_LIMITED_CARD), jar),
    );
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers["retry-after"]).toBe("2");
    const unknown = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(UNKNOWN_CARD), jar),
    );
    expect(unknown.response.status).toBe(404);
    expect(JSON.stringify(unknown)).not.toContain(UNKNOWN_CARD);
  });

  it("shows a body that is not JSON as text, flagged", async () => {
    const jar = await demoSession();
    const record = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(TEXT_CARD), jar),
    );
    expect(record.response.status).toBe(200);
    expect(record.response.body_is_text).toBe(true);
    expect(typeof record.response.body).toBe("string");
    expect(record.response.schema_issues).toEqual(["(body): expected JSON, got text"]);
  });

  it("refuses a request_id field (Balance Inquiry has none)", async () => {
    const jar = await demoSession();
    const response = await call(
      balanceRoute.POST,
      "POST",
      "/api/inquiries/balance",
      inquiry(ACTIVE_CARD, { request_id: "x" }),
      jar,
    );
    expect(response.status).toBe(400);
  });
});

describe("POST /api/inquiries/gift-balance", () => {
  it("runs Gift Balance Inquiry with a fresh server-made Request Id", async () => {
    const jar = await demoSession();
    const response = await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiry(), jar);
    expect(response.status).toBe(200);
    const record = await readJson<ExchangeRecord>(response);
    expect(record.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.request.headers["X-Request-Id"]).toBe(record.request_id);
    expect(record.request.url).toBe("http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry");
    expect(record.response).toMatchObject({
      status: 201,
      body: {
        data: {
          transaction_type: "gift_balance_inquiry",
          response_status: "approved",
          card_number: "600649******0001",
          balance: "25.00",
          transaction_id: expect.stringMatching(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
          ),
        },
      },
    });
    expect(record.response.schema_issues).toBeUndefined();
    expect(getEmbeddedSandbox().stats().transactions).toBe(1);
  });

  it("uses the tester's request_id, so a replay with the same id shows the upstream's 409", async () => {
    const jar = await demoSession();
    const body = inquiry(ACTIVE_CARD, { request_id: "replay-me-001" });
    const first = await readJson<ExchangeRecord>(
      await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", body, jar),
    );
    expect(first.request_id).toBe("replay-me-001");
    expect(first.response.status).toBe(201);
    const replay = await readJson<ExchangeRecord>(
      await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", body, jar),
    );
    expect(replay.response.status).toBe(409);
    expect(getEmbeddedSandbox().stats().transactions).toBe(1);
  });

  it("shows a declined inquiry and an unknown card as the upstream answered them", async () => {
    const jar = await demoSession();
    const inactive = await readJson<ExchangeRecord>(
      await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiry(INACTIVE_CARD), jar),
    );
    expect(inactive.response.body).toMatchObject({
      data: { response_status: "declined", response_code: "card_inactive" },
    });
    const unknown = await readJson<ExchangeRecord>(
      await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiry(UNKNOWN_CARD), jar),
    );
    expect(unknown.response.body).toMatchObject({
      data: { response_status: "declined", response_code: "card_not_found" },
    });
  });

  it("never retries on a 5xx or 429: one attempt, one record", async () => {
    const jar = await demoSession();
    for (const card of [FAILING_CARD, RATE_LIMITED_CARD]) {
      const record = await readJson<ExchangeRecord>(
        await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiry(card), jar),
      );
      expect(record.timings?.retried_ms).toBeUndefined();
      expect(record.token_events.every((event) => event.type !== "renewed_after_401")).toBe(true);
    }
  });

  it("answers 401 no_credentials without credentials, and 401 token_refused with bad ones", async () => {
    const none = await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiry());
    expect(none.status).toBe(401);
    expect((await readJson<{ error: { code: string } }>(none)).error.code).toBe("no_credentials");
    const jar = new CookieJar();
    await call(
      credentialsRoute.PUT,
      "PUT",
      "/api/session/credentials",
      { body: { client_id: "nobody", client_secret: "wrong" } },
      jar,
    );
    const refused = await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiry(), jar);
    expect(refused.status).toBe(401);
    const error = (
      await readJson<{ error: { code: string; details: { exchange: ExchangeRecord } } }>(refused)
    ).error;
    expect(error.code).toBe("token_refused");
    expect(error.details.exchange.response.status).toBe(400);
    expect(getEmbeddedSandbox().stats().transactions).toBe(0);
  });
});

describe("GET /api/transactions/request-id/{id}", () => {
  const lookup = (id: string, jar?: CookieJar) =>
    call(lookupRoute.GET, "GET", `/api/transactions/request-id/${encodeURIComponent(id)}`, {}, jar);

  it("finds a Gift Balance Inquiry's transaction by its Request Id, card masked, no token", async () => {
    const jar = await demoSession();
    const gift = await readJson<ExchangeRecord>(
      await call(
        giftRoute.POST,
        "POST",
        "/api/inquiries/gift-balance",
        inquiry(ACTIVE_CARD, { request_id: "find:me?01&%+" }),
        jar,
      ),
    );
    expect(gift.response.status).toBe(201);
    const response = await lookup("find:me?01&%+", jar);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const record = await readJson<ExchangeRecord>(response.clone());
    expect(record).toMatchObject({
      operation: "transaction_lookup",
      environment: "embedded",
      request_id: "find:me?01&%+",
      request: {
        method: "GET",
        url: "http://localhost:3000/sandbox/transaction/v1/transactions/request-id/find%3Ame%3F01%26%25%2B",
        headers: { Authorization: "Bearer [REDACTED]" },
        body: null,
      },
      response: {
        status: 200,
        body: {
          data: {
            transaction_id: (gift.response.body as { data: { transaction_id: string } }).data.transaction_id,
            card_number: "600649******0001",
          },
        },
      },
    });
    expect(record.response.schema_issues).toBeUndefined();
    const shown = await visible(response);
    expect(shown).not.toContain(ACTIVE_CARD);
    expect(shown).not.toMatch(JWT);
    expect(logs.text()).not.toContain(ACTIVE_CARD);
    // A lookup records nothing upstream.
    expect(getEmbeddedSandbox().stats().transactions).toBe(1);
  });

  it("shows the upstream's 404 inside a 200 record after a Balance Inquiry (it sends no Request Id)", async () => {
    const jar = await demoSession();
    await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiry(), jar);
    const response = await lookup("never-used-request-id", jar);
    expect(response.status).toBe(200);
    const record = await readJson<ExchangeRecord>(response);
    expect(record.response.status).toBe(404);
    expect(record.response.body).toMatchObject({ errors: [{ code: "transaction_not_found" }] });
  });

  it("renews the token once after a 401 and retries the GET", async () => {
    const jar = await demoSession();
    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    getEmbeddedSandbox().revokeTokens();
    const record = await readJson<ExchangeRecord>(await lookup("after-revoke", jar));
    expect(record.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
    expect(record.response.status).toBe(404);
  });

  it("answers 400 validation_failed for an id that is too long or not printable", async () => {
    const jar = await demoSession();
    for (const path of [
      `/api/transactions/request-id/${"x".repeat(129)}`,
      "/api/transactions/request-id/tab%09here",
      "/api/transactions/request-id/%E2%82%AC",
      "/api/transactions/request-id/%E0%A4%A",
    ]) {
      const response = await call(lookupRoute.GET, "GET", path, {}, jar);
      expect(response.status).toBe(400);
      const body = await readJson<{ error: { code: string; details: { fields: Record<string, string[]> } } }>(
        response,
      );
      expect(body.error.code).toBe("validation_failed");
      expect(Object.keys(body.error.details.fields)).toEqual(["id"]);
    }
    expect(getEmbeddedSandbox().stats().tokenRequests).toBe(0);
  });

  it("answers 401 no_credentials without credentials", async () => {
    const response = await lookup("anything");
    expect(response.status).toBe(401);
    expect((await readJson<{ error: { code: string } }>(response)).error.code).toBe("no_credentials");
  });

  it("serves GET only", async () => {
    const response = await call(lookupRoute.POST, "POST", "/api/transactions/request-id/x", { body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, OPTIONS");
  });
});
