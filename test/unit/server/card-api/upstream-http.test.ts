/**
 * The card API client over a real network path (undici keep-alive pool) against local servers: the
 * standalone sandbox as the "sandbox" environment, and scripted upstreams for redirects, odd bodies,
 * refused connections, TLS failures and hangs. Addresses come only from configuration.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as balanceRoute from "@/app/api/inquiries/balance/route";
import * as giftRoute from "@/app/api/inquiries/gift-balance/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as environmentRoute from "@/app/api/session/environment/route";
import * as tokenRoute from "@/app/api/token/route";
import type { ExchangeRecord, TokenResult } from "@/lib/shared/contracts";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { call, configure, CookieJar, readJson } from "../support";

const CARD = "6006491000000001";
const inquiryBody = { body: { card_number: CARD, location_id: "L1" } };

interface ErrorShape {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

type CardHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** An upstream whose token endpoint works and whose card endpoints do what the test says. */
async function scriptedUpstream(
  onCard: CardHandler,
): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    request.resume();
    if (request.url === "/reporting/v1/auth/token") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          data: {
            type: "oauth-token",
            attributes: {
              access_token: "opaque-token-1",
              token_type: "Bearer",
              expires_in: 7200,
              scope: "read:transactions",
            },
          },
          meta: { timestamp: "2026-01-01T00:00:00.000Z", request_id: "req-1-a", version: "1.0.0" },
          jsonapi: { version: "1.0" },
        }),
      );
      return;
    }
    onCard(request, response);
  });
  return listen(server, hits);
}

async function listen(server: Server, hits: string[] = []) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function closedPort(): Promise<number> {
  const { url, close } = await listen(createServer());
  await close();
  return Number(new URL(url).port);
}

async function userSession(): Promise<CookieJar> {
  const jar = new CookieJar();
  const response = await call(
    credentialsRoute.PUT,
    "PUT",
    "/api/session/credentials",
    { body: { client_id: "demo-client", client_secret: "demo-secret" } },
    jar,
  );
  expect(response.status).toBe(200);
  return jar;
}

function configureUpstream(url: string, extra: Record<string, string> = {}) {
  configure({ EMBEDDED_SANDBOX: "off", CARD_API_AUTH_URL: url, CARD_API_SANDBOX_URL: url, ...extra });
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe("the standalone sandbox as the configured sandbox environment (HTTP, pooled keep-alive)", () => {
  const sandbox = createSandbox();
  let server: SandboxServer;
  beforeAll(async () => {
    server = await startSandboxServer({ port: 0, sandbox });
  });
  afterAll(async () => server.close());

  it("runs token, Gift Balance Inquiry and Balance Inquiry over HTTP, with the configured URLs in the records", async () => {
    configure({
      CARD_API_AUTH_URL: server.url,
      CARD_API_SANDBOX_URL: server.url,
      CARD_API_PRODUCTION_URL: `${server.url}/nowhere`,
    });
    const jar = await userSession();
    const selected = await call(
      environmentRoute.PUT,
      "PUT",
      "/api/session/environment",
      { body: { environment: "sandbox" } },
      jar,
    );
    expect(selected.status).toBe(200);
    const token = await readJson<TokenResult>(
      await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar),
    );
    expect(token.exchange.request.url).toBe(`${server.url}/reporting/v1/auth/token`);
    expect(token.exchange.environment).toBe("sandbox");
    expect(token.token?.scopes).toContain("read:transactions");
    const gift = await readJson<ExchangeRecord>(
      await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiryBody, jar),
    );
    expect(gift.request.url).toBe(`${server.url}/transaction/v1/gift/balance-inquiry`);
    expect(gift.response.status).toBe(201);
    expect(gift.token_events).toEqual([]);
    const balance = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiryBody, jar),
    );
    expect(balance.response.status).toBe(200);
    expect(JSON.stringify(balance)).not.toContain(CARD);

    // One token is valid for sandbox and production (API specification §5.6): switching keeps it, and uses the other base.
    await call(
      environmentRoute.PUT,
      "PUT",
      "/api/session/environment",
      { body: { environment: "production" } },
      jar,
    );
    const production = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiryBody, jar),
    );
    expect(production.request.url).toBe(`${server.url}/nowhere/transaction/v1/balance-inquiry`);
    expect(production.token_events).toEqual([]);
  });

  it("renews after a 401 over HTTP and retries with the same Request Id", async () => {
    configureUpstream(server.url);
    const jar = await userSession();
    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    sandbox.revokeTokens();
    const record = await readJson<ExchangeRecord>(
      await call(
        giftRoute.POST,
        "POST",
        "/api/inquiries/gift-balance",
        { body: { ...inquiryBody.body, request_id: "http-retry-1" } },
        jar,
      ),
    );
    expect(record.response.status).toBe(201);
    expect(record.request_id).toBe("http-retry-1");
    expect(record.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
  });

  it("cannot be pointed elsewhere by request headers or fields", async () => {
    configureUpstream(server.url);
    const jar = await userSession();
    const response = await call(
      balanceRoute.POST,
      "POST",
      "/api/inquiries/balance",
      {
        ...inquiryBody,
        headers: { "x-forwarded-host": "evil.example", "x-upstream": "http://evil.example" },
      },
      jar,
    );
    // A forwarded host (believed only from TRUSTED_PROXIES) never chooses the upstream address.
    expect(response.status).toBe(200);
    const record = await readJson<ExchangeRecord>(response);
    expect(record.request.url).toBe(`${server.url}/transaction/v1/balance-inquiry`);
    const withUrlField = await call(
      balanceRoute.POST,
      "POST",
      "/api/inquiries/balance",
      { body: { ...inquiryBody.body, url: "http://evil.example/" } },
      jar,
    );
    expect(withUrlField.status).toBe(400);
  });
});

describe("scripted upstreams", () => {
  it("does not follow redirects: a 302 is shown as the answer", async () => {
    const target = await scriptedUpstream((_request, response) => response.end("{}"));
    cleanups.push(target.close);
    const upstream = await scriptedUpstream((_request, response) => {
      response.writeHead(302, { location: `${target.url}/stolen` });
      response.end();
    });
    cleanups.push(upstream.close);
    configureUpstream(upstream.url);
    const jar = await userSession();
    const record = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiryBody, jar),
    );
    expect(record.response.status).toBe(302);
    expect(record.response.headers.location).toBe(`${target.url}/stolen`);
    expect(target.hits).toEqual([]);
  });

  it("shows a non-JSON success body as text, flagged", async () => {
    const upstream = await scriptedUpstream((_request, response) => {
      response.writeHead(201, { "content-type": "text/html" });
      response.end(`<html>card ${CARD} ok</html>`);
    });
    cleanups.push(upstream.close);
    configureUpstream(upstream.url);
    const jar = await userSession();
    const record = await readJson<ExchangeRecord>(
      await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiryBody, jar),
    );
    expect(record.response).toMatchObject({
      status: 201,
      body: "<html>card 600649******0001 ok</html>",
      body_is_text: true,
      schema_issues: ["(body): expected JSON, got text"],
    });
  });

  it("shows an unexpected JSON shape as it was, with its schema issues", async () => {
    const upstream = await scriptedUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ data: { card_number: CARD, balances: { gift: 25 } }, extra: "kept" }));
    });
    cleanups.push(upstream.close);
    configureUpstream(upstream.url);
    const jar = await userSession();
    const record = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiryBody, jar),
    );
    expect(record.response.body).toEqual({
      data: { card_number: "600649******0001", balances: { gift: 25 } },
      extra: "kept",
    });
    expect(record.response.schema_issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^data\.system_time: /),
        expect.stringMatching(/^data\.balances\.gift: /),
      ]),
    );
  });

  it("keeps keys such as __proto__ as keys when showing an upstream body", async () => {
    const upstream = await scriptedUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"__proto__":{"polluted":true},"data":{"constructor":"x"}}');
    });
    cleanups.push(upstream.close);
    configureUpstream(upstream.url);
    const jar = await userSession();
    const response = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiryBody, jar);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("passes 429 with Retry-After through inside a 200 record, without retrying", async () => {
    const upstream = await scriptedUpstream((_request, response) => {
      response.writeHead(429, { "retry-after": "2", "content-type": "application/json" });
      response.end('{"errors":[{"status":"429"}]}');
    });
    cleanups.push(upstream.close);
    configureUpstream(upstream.url);
    const jar = await userSession();
    const response = await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiryBody, jar);
    expect(response.status).toBe(200);
    const record = await readJson<ExchangeRecord>(response);
    expect(record.response.status).toBe(429);
    expect(record.response.headers["retry-after"]).toBe("2");
    expect(upstream.hits.filter((hit) => hit.includes("gift"))).toHaveLength(1);
  });

  it("answers 502 upstream_unreachable when the connection is refused", async () => {
    configureUpstream(`http://127.0.0.1:${await closedPort()}`);
    const jar = await userSession();
    const response = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiryBody, jar);
    expect(response.status).toBe(502);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { error } = await readJson<ErrorShape>(response);
    expect(error).toMatchObject({
      code: "upstream_unreachable",
      details: { operation: "token", cause: "ECONNREFUSED" },
    });
    expect(error.message).toMatch(/refused/);
  });

  it("answers 502 upstream_tls_error when the TLS handshake fails", async () => {
    const plain = await scriptedUpstream((_request, response) => response.end("{}"));
    cleanups.push(plain.close);
    configureUpstream(plain.url.replace("http:", "https:"));
    const jar = await userSession();
    const response = await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    expect(response.status).toBe(502);
    expect((await readJson<ErrorShape>(response)).error.code).toBe("upstream_tls_error");
  });

  it("answers 504 upstream_timeout when the upstream never answers, and does not retry", async () => {
    const upstream = await scriptedUpstream(() => undefined);
    cleanups.push(upstream.close);
    configureUpstream(upstream.url, { CARD_API_TIMEOUT_MS: "300" });
    const jar = await userSession();
    const response = await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", inquiryBody, jar);
    expect(response.status).toBe(504);
    const { error } = await readJson<ErrorShape>(response);
    expect(error.code).toBe("upstream_timeout");
    expect(error.details).toMatchObject({
      operation: "gift_balance_inquiry",
      request_id: expect.any(String),
    });
    expect(upstream.hits.filter((hit) => hit.includes("gift"))).toHaveLength(1);
  });

  it("shows repeated headers joined, and the final answer after an informational one", async () => {
    const upstream = await scriptedUpstream((_request, response) => {
      response.writeEarlyHints({ link: "</style.css>; rel=preload" });
      response.writeHead(200, { "content-type": "application/json", "x-upstream-note": ["first", "second"] });
      response.end("{}");
    });
    cleanups.push(upstream.close);
    configureUpstream(upstream.url);
    const jar = await userSession();
    const record = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiryBody, jar),
    );
    expect(record.response.status).toBe(200);
    expect(record.response.headers["x-upstream-note"]).toBe("first, second");
    expect(record.response.headers.link).toBeUndefined();
  });

  it("cuts an oversized body at 1 MiB and says so", async () => {
    const upstream = await scriptedUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("x".repeat(1024 * 1024 + 10));
    });
    cleanups.push(upstream.close);
    configureUpstream(upstream.url);
    const jar = await userSession();
    const record = await readJson<ExchangeRecord>(
      await call(balanceRoute.POST, "POST", "/api/inquiries/balance", inquiryBody, jar),
    );
    expect((record.response.body as string).length).toBe(1024 * 1024);
    expect(record.response.schema_issues?.[0]).toMatch(/cut at 1 MiB/);
  });
});
