/**
 * `POST /api/requests` on a started console behind a proxy (AUTH_MODE=proxy, for its roles), against a sandbox
 * over HTTP that records every card call as it arrived: the body goes out byte for byte with the caller's
 * headers and Content-Type, the console's own headers are refused before anything is sent, a malformed body's
 * card is masked in the record, support and strangers are refused, and the audit row says `free_form`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import type { ConsoleServer } from "@/test/support/console-server";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";

const SECRET = "proxy-shared-secret-for-free-form";
const CARD = "6006491000000001";
const identity = proxyIdentity(SECRET);
const ENGINEER = identity("eve", "engineers");
const ADMIN = identity("ada", "console-admins");

interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

const received: Received[] = [];
let upstream: SandboxServer;
let server: ConsoleServer;

beforeAll(async () => {
  const sandbox = createSandbox({ demoSecret: "demo-secret" });
  const recording = async (request: Request) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith("/transaction/")) return sandbox.handle(request);
    const bytes = Buffer.from(await request.arrayBuffer());
    received.push({
      method: request.method,
      path: url.pathname,
      headers: Object.fromEntries(request.headers),
      bytes,
    });
    const body = request.method === "GET" ? undefined : bytes;
    return sandbox.handle(
      new Request(request.url, { method: request.method, headers: request.headers, body }),
    );
  };
  upstream = await startSandboxServer({ port: 0, sandbox: { ...sandbox, handle: recording } });
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "admin:console-admins,support:support-desk,engineer:engineers",
    env: {
      EMBEDDED_SANDBOX: "off",
      CARD_API_AUTH_URL: upstream.url,
      CARD_API_SANDBOX_URL: upstream.url,
      CARD_API_CLIENT_ID: "demo-client",
      CARD_API_CLIENT_SECRET: "demo-secret",
    },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

async function freeForm(
  body: unknown,
  headers: Record<string, string> = ENGINEER,
  origin: string | null = server.url,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/api/requests`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json", ...(origin ? { Origin: origin } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const record = (answer: { body: Record<string, unknown> }) => answer.body as unknown as ExchangeRecord;

describe("POST /api/requests", () => {
  it("sends the body byte for byte with the caller's headers and Content-Type, the console's token", async () => {
    // Extra field, odd spacing, a trailing newline: none of it may be touched.
    const body = `{ "data":{"entry_mode":"keyed","card_number":"${CARD}","pin_mode":"none",\n"originator":{"location_id":"store-001"},"extra":[1, 2]} }\n`;
    const before = received.length;
    const answer = await freeForm({
      operation: "balance_inquiry",
      environment: "sandbox",
      headers: { "Content-Type": "application/json; charset=utf-8", "X-Trace": "free form 1", Accept: "*/*" },
      body,
    });
    expect(answer.status).toBe(200);
    expect(received.length).toBe(before + 1);
    const sent = received.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/transaction/v1/balance-inquiry");
    expect(sent.bytes.equals(Buffer.from(body, "utf8"))).toBe(true);
    expect(sent.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(sent.headers["x-trace"]).toBe("free form 1");
    expect(sent.headers.accept).toBe("*/*");
    expect(sent.headers.authorization).toMatch(/^Bearer \S{20,}/);
    const exchange = record(answer);
    expect(exchange).toMatchObject({ operation: "balance_inquiry", free_form: true, environment: "sandbox" });
    expect(exchange.request.headers.Authorization).toBe("Bearer [REDACTED]");
    expect(exchange.request.body).toBe(body.replace(CARD, "600649******0001"));
    expect(JSON.stringify(answer.body)).not.toContain(CARD);
    expect(exchange.response.status).toBe(200);
  });

  it("sends another content type as given, and a Gift Balance Inquiry gets the given X-Request-Id", async () => {
    const body = `card=${CARD}&location=store-001`;
    const answer = await freeForm({
      operation: "gift_balance_inquiry",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Request-Id": "ff-req-0001" },
      body,
    });
    expect(answer.status).toBe(200);
    const sent = received.at(-1)!;
    expect(sent.path).toBe("/transaction/v1/gift/balance-inquiry");
    expect(sent.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(sent.headers["x-request-id"]).toBe("ff-req-0001");
    expect(sent.bytes.toString("utf8")).toBe(body);
    expect(record(answer)).toMatchObject({ request_id: "ff-req-0001", free_form: true });
    expect(record(answer).response.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(answer.body)).not.toContain(CARD);
  });

  it("masks the card of a malformed body in the record, and shows the upstream's 400", async () => {
    const body = `{"data": {"card_number": "${CARD}", "pin_mode": `;
    const answer = await freeForm({ operation: "balance_inquiry", body });
    expect(answer.status).toBe(200);
    expect(received.at(-1)!.bytes.toString("utf8")).toBe(body);
    // The default Content-Type when headers name none.
    expect(received.at(-1)!.headers["content-type"]).toBe("application/json");
    const exchange = record(answer);
    expect(exchange.request.body).toBe(`{"data": {"card_number": "600649******0001", "pin_mode": `);
    expect(exchange.response.status).toBe(400);
    expect(JSON.stringify(answer.body)).not.toContain(CARD);
  });

  it("looks a transaction up by the request's id, as a GET with no body", async () => {
    const answer = await freeForm({
      operation: "lookup_transaction",
      request_id: "ff-req-0001",
      headers: { "X-Trace": "lookup" },
    });
    expect(answer.status).toBe(200);
    const sent = received.at(-1)!;
    expect(sent).toMatchObject({
      method: "GET",
      path: "/transaction/v1/transactions/request-id/ff-req-0001",
    });
    expect(sent.headers["x-trace"]).toBe("lookup");
    expect(record(answer)).toMatchObject({ operation: "transaction_lookup", request_id: "ff-req-0001" });
    const noId = await freeForm({ operation: "lookup_transaction" });
    expect(noId.status).toBe(400);
    expect(noId.body).toMatchObject({ error: { code: "validation_failed" } });
  });

  it("refuses the console's own and hop-by-hop headers with header_not_allowed, sending nothing", async () => {
    const before = received.length;
    for (const name of [
      "Host",
      "authorization",
      "Content-Length",
      "Transfer-Encoding",
      "Connection",
      "Cookie",
      "Keep-Alive",
      "Upgrade",
      "TE",
      "Proxy-Authorization",
    ]) {
      const answer = await freeForm({ operation: "balance_inquiry", headers: { [name]: "x" }, body: "{}" });
      expect(answer.status, name).toBe(400);
      expect(answer.body, name).toMatchObject({
        error: { code: "header_not_allowed", details: { header: name } },
      });
      expect((answer.body.error as { message: string }).message).toContain(name);
    }
    const bad: Record<string, string>[] = [
      { "X-Evil": "a\r\nInjected: yes" },
      { "Bad Name": "x" },
      { "X-Long": "x".repeat(3000) },
      Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`X-H${index}`, "x"])),
    ];
    for (const headers of bad) {
      const answer = await freeForm({ operation: "balance_inquiry", headers, body: "{}" });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: "validation_failed" } });
    }
    const big = await freeForm({ operation: "balance_inquiry", body: "x".repeat(16 * 1024 + 1) });
    expect(big.status).toBe(400);
    const nul = await freeForm({ operation: "balance_inquiry", body: "{\u0000}" });
    expect(nul.status).toBe(400);
    const extra = await freeForm({ operation: "balance_inquiry", body: "{}", url: "http://elsewhere" });
    expect(extra.status).toBe(400);
    const token = await freeForm({ operation: "token", body: "{}" });
    expect(token.status).toBe(400);
    expect(received.length).toBe(before);
  });

  it("refuses support, the anonymous and other origins", async () => {
    const support = await freeForm(
      { operation: "balance_inquiry", body: "{}" },
      identity("sam", "support-desk"),
    );
    expect(support.status).toBe(403);
    expect(support.body).toMatchObject({ error: { code: "forbidden_by_role" } });
    const anonymous = await freeForm({ operation: "balance_inquiry", body: "{}" }, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: { code: "not_signed_in" } });
    const crossOrigin = await freeForm(
      { operation: "balance_inquiry", body: "{}" },
      ENGINEER,
      "https://evil.example",
    );
    expect(crossOrigin.status).toBe(403);
    expect(crossOrigin.body).toMatchObject({ error: { code: "invalid_origin" } });
  });

  it("is audited as the operation, with free_form in its details", async () => {
    const answer = await freeForm({
      operation: "balance_inquiry",
      body: JSON.stringify({
        data: { entry_mode: "keyed", card_number: CARD, pin_mode: "none", originator: { location_id: "x" } },
      }),
    });
    expect(answer.status).toBe(200);
    const response = await fetch(`${server.url}/api/audit?event=balance_inquiry&user=eve&limit=50`, {
      headers: ADMIN,
    });
    const { rows } = (await response.json()) as {
      rows: { details: Record<string, unknown> | null; card: string | null; upstream_status: number }[];
    };
    const freeFormRows = rows.filter((row) => row.details?.free_form === true);
    expect(freeFormRows.length).toBeGreaterThanOrEqual(3);
    expect(freeFormRows[0]).toMatchObject({ card: "600649******0001", upstream_status: 200 });
  });
});
