/**
 * What an engineer's free-form request can make the console send to a real upstream over HTTP: a Request Id never
 * leaves the lookup's path (`.`, `..` and slashes are refused before anything is sent, and the record names the URL
 * sent), and a header the HTTP client itself refuses (`Expect`) is a 400 of the console's, not the upstream's fault.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as requestsRoute from "@/app/api/requests/route";
import * as lookupRoute from "@/app/api/transactions/request-id/[id]/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import { undiciTransport } from "@/lib/server/card-api/transport";
import { createMetrics } from "@/lib/server/metrics";
import { meteredTransport } from "@/lib/server/metrics/upstream";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { call, configure, CookieJar, readJson } from "../support";

interface ErrorShape {
  error: { code: string; message: string; details?: { fields?: Record<string, string[]> } };
}

/** An upstream whose token endpoint works and whose card endpoints answer 200 `{}`; every target it saw. */
let hits: string[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    if (request.url !== "/reporting/v1/auth/token") return response.end("{}");
    response.end(
      JSON.stringify({
        data: {
          type: "oauth-token",
          attributes: {
            access_token: "opaque-1",
            token_type: "Bearer",
            expires_in: 7200,
            scope: "read:transactions",
          },
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function session(): Promise<CookieJar> {
  configure({ EMBEDDED_SANDBOX: "off", CARD_API_AUTH_URL: url, CARD_API_SANDBOX_URL: url });
  const jar = new CookieJar();
  const response = await call(
    credentialsRoute.PUT,
    "PUT",
    "/api/session/credentials",
    { body: { client_id: "c-1", client_secret: "s-secret-1" } },
    jar,
  );
  expect(response.status).toBe(200);
  return jar;
}

const cardCalls = () => hits.filter((hit) => !hit.includes("/auth/token"));

describe("a Request Id in the lookup's path", () => {
  it("refuses `.`, `..` and slashes with a 400 naming request_id, and sends nothing", async () => {
    const jar = await session();
    hits = [];
    const attempts: Record<string, unknown>[] = [
      { operation: "lookup_transaction", request_id: ".." },
      { operation: "lookup_transaction", request_id: "." },
      { operation: "lookup_transaction", request_id: "../../balance-inquiry" },
      { operation: "lookup_transaction", headers: { "X-Request-Id": ".." } },
    ];
    for (const body of attempts) {
      const response = await call(requestsRoute.POST, "POST", "/api/requests", { body }, jar);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await readJson<ErrorShape>(response);
      expect(error.error.code).toBe("validation_failed");
      expect(Object.keys(error.error.details?.fields ?? {})).toEqual(["request_id"]);
    }
    const routed = await call(lookupRoute.GET, "GET", "/api/transactions/request-id/a%2Fb", {}, jar);
    expect(routed.status).toBe(400);
    expect(cardCalls()).toEqual([]);
  });

  it("records the URL it sent, which stays under the lookup's path", async () => {
    const jar = await session();
    hits = [];
    const record = await readJson<ExchangeRecord>(
      await call(
        requestsRoute.POST,
        "POST",
        "/api/requests",
        { body: { operation: "lookup_transaction", request_id: "..." } },
        jar,
      ),
    );
    expect(cardCalls()).toEqual(["GET /transaction/v1/transactions/request-id/..."]);
    expect(record.request.url).toBe(`${url}/transaction/v1/transactions/request-id/...`);
  });
});

describe("a header the console's HTTP client refuses to send", () => {
  it("answers Expect with 400 header_not_allowed, sending nothing", async () => {
    const jar = await session();
    hits = [];
    const response = await call(
      requestsRoute.POST,
      "POST",
      "/api/requests",
      { body: { operation: "balance_inquiry", headers: { Expect: "100-continue" }, body: "{}" } },
      jar,
    );
    expect(response.status).toBe(400);
    expect(await readJson<ErrorShape>(response)).toMatchObject({
      error: { code: "header_not_allowed", details: { header: "Expect" } },
    });
    expect(cardCalls()).toEqual([]);
  });

  it("is a local 400, never an upstream failure, and counts no upstream call", async () => {
    const agent = new Agent();
    const metrics = createMetrics();
    const transport = meteredTransport(undiciTransport(agent), "sandbox", metrics);
    hits = [];
    const sending = transport({
      method: "POST",
      url: `${url}/transaction/v1/balance-inquiry`,
      headers: { expect: "100-continue" },
      body: "{}",
      signal: new AbortController().signal,
    });
    await expect(sending).rejects.toMatchObject({ code: "bad_request", status: 400 });
    const counted = await metrics.upstreamCalls.get();
    expect(counted.values).toEqual([]);
    expect(hits).toEqual([]);
    await agent.close();
  });
});
