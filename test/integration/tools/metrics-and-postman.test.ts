/**
 * GET /api/metrics and GET /api/postman-collection.json on the production build, behind a trusted proxy
 * (AUTH_MODE=proxy) so that roles differ: who may read them, what a scrape shows after real calls (read with a
 * Prometheus text parser), and the downloaded collection run by newman against the console's own sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@/test/support/console-server";
import { failuresOf, runNewman } from "@/test/support/newman";
import { parseExposition, sampleOf } from "@/test/support/prometheus";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";
import { CookieJar } from "../auth/provider-driver";
import { api } from "../auth/team-console.support";

const SECRET = "proxy-shared-secret-for-tools-tests";
const METRICS_TOKEN = "metrics-token-for-the-scraper-0123";
const identity = proxyIdentity(SECRET);
const ADMIN = identity("ada", "admins");
const TESTER = identity("tess", "testers");
const SUPPORT = identity("sam", "desk");

let server: ConsoleServer;
beforeAll(async () => {
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "admin:admins,tester:testers,support:desk",
    env: { METRICS_TOKEN },
  });
});
afterAll(() => server?.stop());

async function scrape(headers: Record<string, string>) {
  const response = await fetch(`${server.url}/api/metrics`, { headers });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("GET /api/metrics", () => {
  it("answers the scraper's bearer token and admins; nobody else", async () => {
    expect((await scrape({})).status).toBe(401);
    expect((await scrape({ Authorization: "Bearer not-the-metrics-token-at-all" })).status).toBe(401);
    const support = await scrape(SUPPORT);
    expect(support.status).toBe(403);
    expect(JSON.parse(support.text)).toMatchObject({ error: { code: "forbidden_by_role" } });
    expect((await scrape(TESTER)).status).toBe(403);
    expect((await scrape(ADMIN)).status).toBe(200);
    const scraper = await scrape({ Authorization: `Bearer ${METRICS_TOKEN}` });
    expect(scraper.status).toBe(200);
    expect(scraper.type).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("shows requests, upstream calls, token requests and audit rows moving after a Balance Inquiry", async () => {
    const before = parseExposition((await scrape({ Authorization: `Bearer ${METRICS_TOKEN}` })).text);
    const jar = new CookieJar();
    expect(
      (await api(server.url, jar, "PUT", "/api/session/credentials", { profile: "demo" }, TESTER)).status,
    ).toBe(200);
    const card = { card_number: "6006491000000001", location_id: "store-1" };
    expect((await api(server.url, jar, "POST", "/api/inquiries/balance", card, TESTER)).status).toBe(200);
    const after = parseExposition((await scrape({ Authorization: `Bearer ${METRICS_TOKEN}` })).text);

    const moved = (name: string, labels: Record<string, string>) =>
      sampleOf(after, name, labels) - sampleOf(before, name, labels);
    const balance = { operation: "balance_inquiry", environment: "embedded", status: "200" };
    expect(moved("console_upstream_calls_total", balance)).toBe(1);
    expect(moved("console_token_requests_total", { environment: "embedded", status: "200" })).toBe(1);
    expect(moved("console_audit_rows_total", { outcome: "written" })).toBeGreaterThanOrEqual(1);
    expect(
      moved("console_http_requests_total", {
        route: "/api/inquiries/balance",
        method: "POST",
        status: "200",
      }),
    ).toBe(1);
    expect(sampleOf(after, "console_db_pool_connections", { database: "pglite", state: "max" })).toBe(1);
    expect(after.some((family) => family.name === "console_batch_queue_depth")).toBe(true);
  });
});

describe("GET /api/postman-collection.json", () => {
  it("is for engineers, testers and admins, per environment", async () => {
    const support = await api(
      server.url,
      null,
      "GET",
      "/api/postman-collection.json?environment=embedded",
      undefined,
      SUPPORT,
    );
    expect(support.status).toBe(403);
    const unknown = await api(
      server.url,
      null,
      "GET",
      "/api/postman-collection.json?environment=moon",
      undefined,
      TESTER,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { code: "bad_request" } });
    const absent = await api(
      server.url,
      null,
      "GET",
      "/api/postman-collection.json?environment=production",
      undefined,
      TESTER,
    );
    expect(absent.status).toBe(400);
  });

  it("runs green in newman against the console's sandbox with the credentials passed on the command line", async () => {
    const answer = await api<{ variable: { key: string; value: string }[] }>(
      server.url,
      null,
      "GET",
      "/api/postman-collection.json?environment=embedded",
      undefined,
      TESTER,
    );
    expect(answer.status).toBe(200);
    const values = Object.fromEntries(answer.body.variable.map(({ key, value }) => [key, value]));
    expect(values).toMatchObject({
      authUrl: `${server.url}/sandbox`,
      baseUrl: `${server.url}/sandbox`,
      client_id: "",
      client_secret: "",
    });
    const summary = await runNewman(answer.body, { client_id: "demo-client", client_secret: "demo-secret" });
    expect(failuresOf(summary)).toEqual([]);
    expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(20);
  });
});

describe("the Postman environment", () => {
  it("holds the environment's addresses and empty credentials, for the roles that copy code", async () => {
    const path = "/api/postman-environment.json?environment=embedded";
    const answer = await api<{
      values: { key: string; value: string; type: string }[];
      _postman_variable_scope: string;
    }>(server.url, null, "GET", path, undefined, TESTER);
    expect(answer.status).toBe(200);
    expect(answer.body._postman_variable_scope).toBe("environment");
    expect(answer.body.values).toEqual([
      expect.objectContaining({ key: "authUrl", value: `${server.url}/sandbox` }),
      expect.objectContaining({ key: "baseUrl", value: `${server.url}/sandbox` }),
      expect.objectContaining({ key: "client_id", value: "" }),
      expect.objectContaining({ key: "client_secret", value: "", type: "secret" }),
    ]);
    expect((await api(server.url, null, "GET", path, undefined, SUPPORT)).status).toBe(403);
    const bad = await api(
      server.url,
      null,
      "GET",
      "/api/postman-environment.json?environment=x",
      undefined,
      TESTER,
    );
    expect(bad.body).toMatchObject({ error: { code: "bad_request" } });
  });
});

describe("the Postman collection without credentials", () => {
  it("fails once, at the token request, saying what to set, and sends nothing", async () => {
    const answer = await api<object>(
      server.url,
      null,
      "GET",
      "/api/postman-collection.json?environment=embedded",
      undefined,
      TESTER,
    );
    const summary = await runNewman(answer.body);
    expect(failuresOf(summary)).toEqual([
      "Request a token: client_id and client_secret are set: Set client_id and client_secret " +
        "(collection or environment variables): no request was sent.",
    ]);
    expect(summary.run.stats.requests.total).toBe(0);
  });
});

describe("the OpenAPI documents", () => {
  it("name this console's origin in servers, and the sandbox's token endpoint as an oauth2 scheme", async () => {
    const sandboxDocument = (await (await fetch(`${server.url}/sandbox/openapi.json`)).json()) as {
      servers: { url: string }[];
      components: { securitySchemes: Record<string, { flows: { clientCredentials: { tokenUrl: string } } }> };
    };
    expect(sandboxDocument.servers[0]?.url).toBe(`${server.url}/sandbox`);
    expect(sandboxDocument.components.securitySchemes.sandboxOAuth?.flows.clientCredentials.tokenUrl).toBe(
      `${server.url}/sandbox/reporting/v1/auth/token`,
    );
    const consoleDocument = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      servers: { url: string }[];
    };
    expect(consoleDocument.servers[0]?.url).toBe(server.url);
  });
});
