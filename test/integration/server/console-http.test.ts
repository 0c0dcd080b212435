/**
 * The console server over HTTP (`next start` of the production build) against its embedded sandbox:
 * the curl walkthrough, what never leaves the server, single-flight under 50 concurrent calls, renewal on
 * 401, the timeout, tampered cookies, the CSRF matrix, log hygiene, fuzzing, and start-up validation.
 */
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ExchangeRecord, SessionInfo, TokenResult } from "@/lib/shared/contracts";
import { freePort, startConsole, type ConsoleServer } from "../../support/console-server";
import {
  CONSOLE_TEST_SESSION_SECRET,
  ConsoleClient,
  demoClient as connectedDemoClient,
} from "@/test/support/http-client";
import { resetSandbox, revokeSandboxTokens, sandboxStats } from "@/test/support/sandbox-hooks";

const CARD = "6006491000000001";
const SLOW_CARD = "6006491000000043";
const TIMEOUT_MS = 1500;
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

interface ErrorShape {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

let server: ConsoleServer;
const transcript: string[] = [];

/** Records everything the client saw, for the leak checks at the end. */
async function seen(response: Response): Promise<string> {
  const text = await response.clone().text();
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  transcript.push(`${headers}\n${text}`);
  return text;
}

const stats = () => sandboxStats(server.url);

const demoClient = () => connectedDemoClient(server.url);

beforeAll(async () => {
  server = await startConsole({
    SANDBOX_TEST_HOOKS: "on",
    SANDBOX_SLOW_MS: "10000",
    CARD_API_TIMEOUT_MS: String(TIMEOUT_MS),
  });
});
afterAll(async () => server?.stop());
beforeEach(async () => {
  await resetSandbox(server.url);
});

describe("over HTTP", () => {
  it("walks through demo credentials, token and both inquiries with a cookie jar alone", async () => {
    const client = new ConsoleClient(server.url);
    const empty = await client.send("GET", "/api/session");
    expect(empty.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(await seen(empty))).toMatchObject({
      environment: "embedded",
      credentials: { source: "none" },
    });

    const credentials = await client.send("PUT", "/api/session/credentials", { body: { profile: "demo" } });
    await seen(credentials);
    expect(credentials.status).toBe(200);
    const [setCookie = ""] = credentials.headers.getSetCookie();
    expect(setCookie).toMatch(/^csc_session=Fe26\.2\*.*; Path=\/; Max-Age=28800; HttpOnly; SameSite=Lax$/);

    const tokenResponse = await client.send("POST", "/api/token", { body: {} });
    const token = JSON.parse(await seen(tokenResponse)) as TokenResult;
    expect(token.token?.scopes).toEqual(["read:reports", "read:transactions", "export:reports"]);
    expect(token.exchange.request.url).toBe(`${server.url}/sandbox/reporting/v1/auth/token`);

    const giftResponse = await client.send("POST", "/api/inquiries/gift-balance", {
      body: { card_number: CARD, location_id: "store-1" },
    });
    const gift = JSON.parse(await seen(giftResponse)) as ExchangeRecord;
    expect(gift.response.status).toBe(201);
    expect(gift.request.url).toBe(`${server.url}/sandbox/transaction/v1/gift/balance-inquiry`);
    expect(giftResponse.headers.getSetCookie()).toEqual([]); // nothing changed in the session

    const balanceResponse = await client.send("POST", "/api/inquiries/balance", {
      body: { card_number: CARD, location_id: "store-1" },
    });
    const balance = JSON.parse(await seen(balanceResponse)) as ExchangeRecord;
    expect(balance.response.status).toBe(200);
    expect(balance.response.body).toMatchObject({
      data: { card_number: "600649******0001", balances: { gift: "25.00" } },
    });

    const session = await client.send("GET", "/api/session");
    const info = JSON.parse(await seen(session)) as SessionInfo;
    expect(info.token?.fingerprint).toBe(token.token?.fingerprint);
    expect(await stats()).toEqual({ token_requests: 1, transactions: 1 });
  });

  it("makes one token request for 50 concurrent inquiries that find the session's token expired", async () => {
    const client = await demoClient();
    await client.json("POST", "/api/token", { body: {} });
    const sealed = await client.readSession();
    const tok = sealed.tok as Record<string, number>;
    await client.writeSession({ ...sealed, tok: { ...tok, ia: Number(tok.ia) - 7_300_000 } });
    const before = await stats();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        client.json<ExchangeRecord>("POST", "/api/inquiries/balance", {
          body: { card_number: CARD, location_id: "L" },
        }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(Array(50).fill(200));
    expect(results.every((result) => result.body.response.status === 200)).toBe(true);
    expect((await stats()).token_requests).toBe(before.token_requests + 1);
  });

  it("renews once after a 401 and retries once with the same X-Request-Id", async () => {
    const client = await demoClient();
    await client.json("POST", "/api/token", { body: {} });
    await revokeSandboxTokens(server.url);
    const before = await stats();
    const { status, body } = await client.json<ExchangeRecord>("POST", "/api/inquiries/gift-balance", {
      body: { card_number: CARD, location_id: "L", request_id: "http-401-retry" },
    });
    expect(status).toBe(200);
    expect(body.response.status).toBe(201);
    expect(body.request.headers["X-Request-Id"]).toBe("http-401-retry");
    expect(body.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
    const after = await stats();
    expect(after.token_requests).toBe(before.token_requests + 1);
    expect(after.transactions).toBe(before.transactions + 1);
  });

  it("answers 504 upstream_timeout when the sandbox is slower than CARD_API_TIMEOUT_MS", async () => {
    const client = await demoClient();
    const { status, body, response } = await client.json<ErrorShape>("POST", "/api/inquiries/gift-balance", {
      body: { card_number: SLOW_CARD, location_id: "L" },
    });
    expect(status).toBe(504);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body.error.code).toBe("upstream_timeout");
    expect(body.error.message).toContain(`${TIMEOUT_MS} ms`);
    expect((await stats()).transactions).toBe(0);
  });

  it("treats a tampered cookie as an empty session", async () => {
    const client = await demoClient();
    const value = client.cookies.get("csc_session") ?? "";
    client.cookies.set(
      "csc_session",
      value.replace(
        /\*([A-Za-z0-9_-])([A-Za-z0-9_-]*)~2$/,
        (_m, first: string, rest: string) => `*${first === "A" ? "B" : "A"}${rest}~2`,
      ),
    );
    const { status, body } = await client.json<SessionInfo>("GET", "/api/session");
    expect(status).toBe(200);
    expect(body.credentials.source).toBe("none");
    const inquiry = await client.json<ErrorShape>("POST", "/api/inquiries/balance", {
      body: { card_number: CARD, location_id: "L" },
    });
    expect(inquiry.status).toBe(401);
    expect(inquiry.body.error.code).toBe("no_credentials");
  });

  it("refuses cross-site, null and missing origins on every mutating route (CSRF matrix)", async () => {
    const client = await demoClient();
    const routes: [string, string, unknown][] = [
      ["PUT", "/api/session/credentials", { profile: "demo" }],
      ["PUT", "/api/session/environment", { environment: "embedded" }],
      ["POST", "/api/token", {}],
      ["POST", "/api/inquiries/gift-balance", { card_number: CARD, location_id: "L" }],
      ["POST", "/api/inquiries/balance", { card_number: CARD, location_id: "L" }],
      ["DELETE", "/api/session", undefined],
    ];
    const before = await stats();
    for (const [method, path, body] of routes) {
      for (const origin of ["https://evil.example", "null", `http://localhost:${server.port + 1}`, null]) {
        const { status, body: error } = await client.json<ErrorShape>(method, path, { body, origin });
        expect(status, `${method} ${path} from ${origin}`).toBe(403);
        expect(error.error.code).toBe("invalid_origin");
      }
      const form = await client.send(method, path, {
        rawBody: "a=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status, `${method} ${path} as a form`).toBe(method === "DELETE" ? 200 : 415);
    }
    expect(await stats()).toEqual(before);
  });

  it("answers 405, 404, 413 and 400 in the one error shape, with no-store", async () => {
    const client = await demoClient();
    const checks: [string, string, Parameters<ConsoleClient["send"]>[2], number, string][] = [
      ["GET", "/api/token", {}, 405, "method_not_allowed"],
      ["GET", "/api/does-not-exist", {}, 404, "not_found"],
      [
        "POST",
        "/api/inquiries/balance",
        {
          rawBody: JSON.stringify({ card_number: CARD, location_id: "x".repeat(20_000) }),
          headers: { "content-type": "application/json" },
        },
        413,
        "payload_too_large",
      ],
      [
        "POST",
        "/api/inquiries/balance",
        { rawBody: "{", headers: { "content-type": "application/json" } },
        400,
        "invalid_json",
      ],
      [
        "POST",
        "/api/inquiries/balance",
        { body: { card_number: "123", location_id: "L" } },
        400,
        "validation_failed",
      ],
    ];
    for (const [method, path, options, status, code] of checks) {
      const response = await client.send(method, path, options);
      expect(response.status, `${method} ${path}`).toBe(status);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect((JSON.parse(await response.text()) as ErrorShape).error.code).toBe(code);
    }
  });

  it("answers only 200 or 4xx to fuzzed bodies (fast-check)", async () => {
    const client = await demoClient();
    const paths = [
      "/api/inquiries/gift-balance",
      "/api/inquiries/balance",
      "/api/session/credentials",
      "/api/token",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(
          fc
            .record(
              {
                card_number: fc.oneof(
                  fc.stringMatching(/^\d{12,19}$/).filter((card) => card !== SLOW_CARD),
                  fc.string(),
                ),
                location_id: fc.string({ unit: "binary", maxLength: 70 }),
                pin_mode: fc.string(),
                request_id: fc.string({ maxLength: 140 }),
              },
              { requiredKeys: [] },
            )
            .map((value) => JSON.stringify(value)),
          fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
          fc
            .dictionary(
              fc.constantFrom("__proto__", "constructor", "toString", "card_number", "profile"),
              fc.jsonValue(),
            )
            .map((value) => JSON.stringify(value)),
          fc.string({ unit: "binary", maxLength: 100 }),
        ),
        async (path, rawBody) => {
          const method = path.startsWith("/api/session") ? "PUT" : "POST";
          const response = await client.send(method, path, {
            rawBody,
            headers: { "content-type": "application/json" },
          });
          const text = await response.text();
          if (response.status !== 200 && (response.status < 400 || response.status >= 500)) {
            throw new Error(`${path} answered ${response.status}: ${text}`);
          }
        },
      ),
      { numRuns: 120, verbose: true },
    );
  });

  it("never sends a JWT, client secret or session password, and never logs one or a full card number", async () => {
    const everything = transcript.join("\n");
    expect(transcript.length).toBeGreaterThan(3);
    expect(everything).not.toMatch(JWT);
    expect(everything).not.toContain("demo-secret");
    expect(everything).not.toContain(CONSOLE_TEST_SESSION_SECRET);
    expect(everything).not.toContain(CARD);
    const logs = server.logs();
    expect(logs).toContain('"msg":"api call"');
    expect(logs).not.toMatch(JWT);
    expect(logs).not.toContain("demo-secret");
    expect(logs).not.toContain(CONSOLE_TEST_SESSION_SECRET);
    expect(logs).not.toMatch(/Fe26\.2\*/);
    expect(logs).not.toContain(CARD);
    expect(logs).not.toContain(SLOW_CARD);
  });
});

describe("start-up and upstream failures", () => {
  it("refuses to start with a bad CARD_API_TIMEOUT_MS, naming it", async () => {
    await expect(startConsole({ CARD_API_TIMEOUT_MS: "ten seconds" })).rejects.toThrow(
      /CARD_API_TIMEOUT_MS must be a whole number/,
    );
  });

  it("answers 502 upstream_unreachable when the configured upstream refuses connections", async () => {
    const closed = await freePort();
    const other = await startConsole({
      EMBEDDED_SANDBOX: "off",
      CARD_API_AUTH_URL: `http://127.0.0.1:${closed}`,
      CARD_API_SANDBOX_URL: `http://127.0.0.1:${closed}`,
      CARD_API_CLIENT_ID: "server-client",
      CARD_API_CLIENT_SECRET: "server-held-secret-never-shown",
    });
    try {
      const client = new ConsoleClient(other.url);
      const session = await client.json<SessionInfo>("GET", "/api/session");
      expect(session.body).toMatchObject({
        environment: "sandbox",
        credentials: { source: "server", client_id: "server-client" },
      });
      const { status, body } = await client.json<ErrorShape>("POST", "/api/inquiries/balance", {
        body: { card_number: CARD, location_id: "L" },
      });
      expect(status).toBe(502);
      expect(body.error.code).toBe("upstream_unreachable");
      expect(JSON.stringify(body)).not.toContain("server-held-secret-never-shown");
      expect(other.logs()).not.toContain("server-held-secret-never-shown");
    } finally {
      await other.stop();
    }
  });
});
