/**
 * The standalone output, run the way the container image runs it: `node server.js` from .next/standalone (here
 * started from another working directory, with nothing of the repository on its path) walks the main flow over
 * HTTP, and every answer of the console and of the sandbox matches the OpenAPI documents they serve. The image's
 * second command, `node sandbox.mjs` (the standalone sandbox), answers to the same document.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ExchangeRecord, SessionInfo, TokenResult } from "@/lib/shared/contracts";
import { freePort } from "../../support/console-server";
import { OpenApiValidator } from "../../support/openapi-validator";
import { startServerProcess, type ServerProcess } from "../../support/server-process";
import { ConsoleClient, CONSOLE_TEST_SESSION_SECRET } from "@/test/support/http-client";

const root = path.resolve(__dirname, "../../..");
const standalone = path.join(root, process.env.NEXT_DIST_DIR || ".next", "standalone");
const ACTIVE_CARD = "6006491000000001";

describe("the standalone server (node .next/standalone/server.js)", () => {
  let server: ServerProcess;
  let sandbox: ServerProcess;
  let dataDir: string;
  let consoleDocument: OpenApiValidator;
  let sandboxDocument: OpenApiValidator;

  beforeAll(async () => {
    if (!existsSync(path.join(standalone, "server.js"))) {
      throw new Error("No standalone build: run `node scripts/ensure-build.mjs` (npm test does) first.");
    }
    dataDir = mkdtempSync(path.join(os.tmpdir(), "standalone-data-"));
    const port = await freePort();
    const sandboxPort = await freePort();
    [server, sandbox] = await Promise.all([
      startServerProcess({
        script: path.join(standalone, "server.js"),
        cwd: os.tmpdir(),
        env: {
          PORT: String(port),
          DATA_DIR: dataDir,
          SESSION_SECRET: CONSOLE_TEST_SESSION_SECRET,
          ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
        },
        url: `http://localhost:${port}`,
        probeUrl: `http://localhost:${port}/api/health`,
      }),
      startServerProcess({
        script: path.join(standalone, "sandbox.mjs"),
        cwd: os.tmpdir(),
        env: { SANDBOX_PORT: String(sandboxPort) },
        url: `http://127.0.0.1:${sandboxPort}`,
        probeUrl: `http://127.0.0.1:${sandboxPort}/`,
      }),
    ]);
    const [consoleDoc, sandboxDoc] = await Promise.all(
      ["/api/openapi.json", "/sandbox/openapi.json"].map(async (document) => {
        const response = await fetch(`${server.url}${document}`);
        expect(response.status).toBe(200);
        return (await response.json()) as Record<string, unknown>;
      }),
    );
    consoleDocument = new OpenApiValidator(consoleDoc!);
    sandboxDocument = new OpenApiValidator(sandboxDoc!);
  });

  afterAll(async () => {
    await Promise.all([server?.stop(), sandbox?.stop()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("serves the pages with their static files and public/", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = html.match(/\/_next\/static\/[^"']+\.js/)?.[0];
    expect(script).toBeDefined();
    expect((await fetch(`${server.url}${script}`)).status).toBe(200);
    // The sandbox page links its OpenAPI document for API clients to import by URL.
    const sandboxPage = await (await fetch(`${server.url}/sandbox`)).text();
    const link = sandboxPage.match(
      /<a[^>]*href="([^"]+)"[^>]*>Import into Postman \/ Insomnia \/ Bruno<\/a>/,
    )?.[1];
    expect(link).toBe(`${server.url}/sandbox/openapi.json`);
    const imported = await fetch(link!);
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({
      openapi: "3.1.0",
      servers: [{ url: `${server.url}/sandbox` }],
    });
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(await robots.text()).toContain("Disallow: /");
  });

  test("serves the starter clients it ships: the list, and each shipped folder as a zip with its .env.example", async () => {
    const list = await fetch(`${server.url}/api/starter-clients`);
    expect(list.status).toBe(200);
    const { clients } = (await list.json()) as { clients: { language: string }[] };
    expect(clients.map((client) => client.language)).toEqual(["node", "python", "java", "go"]);
    for (const language of ["node", "python"]) {
      const response = await fetch(`${server.url}/api/starter-clients/${language}.zip`);
      expect(response.status, language).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/zip");
      const files = Object.keys(unzipSync(new Uint8Array(await response.arrayBuffer())));
      expect(files).toContain(`card-api-client-${language}/.env.example`);
      expect(files).toContain(`card-api-client-${language}/README.md`);
    }
  });

  test("walks the main flow: demo credentials, token, both inquiries, lookup; every answer as documented", async () => {
    const client = new ConsoleClient(server.url);
    const call = async <T>(method: string, template: string, actual: string, body?: unknown) => {
      if (body !== undefined) expect(consoleDocument.requestBody(method, template, body)).toEqual([]);
      const result = await client.json<T>(method, actual, body === undefined ? {} : { body });
      expect(consoleDocument.response(method, template, result.status, result.body)).toEqual([]);
      return result;
    };

    const credentials = await call<SessionInfo>(
      "PUT",
      "/api/session/credentials",
      "/api/session/credentials",
      {
        profile: "demo",
      },
    );
    expect(credentials.status).toBe(200);
    expect(credentials.body.credentials).toMatchObject({ source: "session", client_id: "demo-client" });

    const token = await call<TokenResult>("POST", "/api/token", "/api/token", {});
    expect(token.status).toBe(200);
    expect(token.body.token?.scopes.length).toBeGreaterThan(0);
    expect(JSON.stringify(token.body)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);

    const gift = await call<ExchangeRecord>(
      "POST",
      "/api/inquiries/gift-balance",
      "/api/inquiries/gift-balance",
      {
        card_number: ACTIVE_CARD,
        location_id: "store-1",
      },
    );
    expect(gift.status).toBe(200);
    expect(gift.body.response.status).toBe(201);
    expect(gift.body.response.body).toMatchObject({
      data: { response_status: "approved", balance: "25.00" },
    });
    const requestId = gift.body.request_id!;
    expect(requestId).toBeTruthy();

    const balance = await call<ExchangeRecord>("POST", "/api/inquiries/balance", "/api/inquiries/balance", {
      card_number: ACTIVE_CARD,
      location_id: "store-1",
    });
    expect(balance.status).toBe(200);
    expect(balance.body.response.status).toBe(200);

    const lookup = await call<ExchangeRecord>(
      "GET",
      "/api/transactions/request-id/{id}",
      `/api/transactions/request-id/${encodeURIComponent(requestId)}`,
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body.response.status).toBe(200);
    const transactionId = (gift.body.response.body as { data: { transaction_id: string } }).data
      .transaction_id;
    expect(lookup.body.response.body).toMatchObject({ data: { transaction_id: transactionId } });

    const session = await call<SessionInfo>("GET", "/api/session", "/api/session");
    expect(session.body.token).not.toBeNull();

    // Errors are documented too: bad input is a 400 in the one error shape.
    const badInput = { card_number: "12", location_id: "store-1" };
    expect(consoleDocument.requestBody("POST", "/api/inquiries/balance", badInput)).not.toEqual([]);
    const refused = await client.json("POST", "/api/inquiries/balance", {
      body: badInput,
    });
    expect(refused.status).toBe(400);
    expect(consoleDocument.response("POST", "/api/inquiries/balance", 400, refused.body)).toEqual([]);

    for (const probe of ["/api/health", "/api/ready"]) {
      const result = await client.json("GET", probe);
      expect(result.status).toBe(200);
      expect(consoleDocument.response("GET", probe, result.status, result.body)).toEqual([]);
    }
  });

  for (const [name, base] of [
    ["the embedded sandbox (/sandbox)", () => `${server.url}/sandbox`],
    ["the image's standalone sandbox (node sandbox.mjs)", () => sandbox.url],
  ] as const) {
    test(`${name} answers as its OpenAPI document says`, async () => {
      const send = async (method: string, template: string, actual: string, init: RequestInit = {}) => {
        const response = await fetch(`${base()}${actual}`, { method, ...init });
        const body = (await response.json()) as Record<string, unknown>;
        expect(sandboxDocument.response(method, template, response.status, body)).toEqual([]);
        return { status: response.status, body };
      };
      const json = { "content-type": "application/json" };
      const tokenPath = "/reporting/v1/auth/token";
      const refused = await send("POST", tokenPath, tokenPath, {
        headers: json,
        body: JSON.stringify({
          client_id: "demo-client",
          client_secret: "wrong",
          grant_type: "client_credentials",
        }),
      });
      expect(refused.status).toBe(400);
      const tokenRequest = {
        client_id: "demo-client",
        client_secret: "demo-secret",
        grant_type: "client_credentials",
      };
      expect(sandboxDocument.requestBody("POST", tokenPath, tokenRequest)).toEqual([]);
      const token = await send("POST", tokenPath, tokenPath, {
        headers: json,
        body: JSON.stringify(tokenRequest),
      });
      expect(token.status).toBe(200);
      const accessToken = (token.body as { data: { attributes: { access_token: string } } }).data.attributes
        .access_token;
      const auth = { ...json, authorization: `Bearer ${accessToken}` };
      const card = {
        data: {
          entry_mode: "keyed",
          card_number: ACTIVE_CARD,
          pin_mode: "none",
          originator: { location_id: "store-1" },
        },
      };
      const giftPath = "/transaction/v1/gift/balance-inquiry";
      expect(sandboxDocument.requestBody("POST", giftPath, card)).toEqual([]);
      const requestId = `req-openapi-${Date.now()}`;
      const gift = await send("POST", giftPath, giftPath, {
        headers: { ...auth, "x-request-id": requestId },
        body: JSON.stringify(card),
      });
      expect(gift.status).toBe(201);
      const balancePath = "/transaction/v1/balance-inquiry";
      expect(
        (await send("POST", balancePath, balancePath, { headers: auth, body: JSON.stringify(card) })).status,
      ).toBe(200);
      const lookupTemplate = "/transaction/v1/transactions/request-id/{request_id}";
      const found = await send(
        "GET",
        lookupTemplate,
        `/transaction/v1/transactions/request-id/${requestId}`,
        {
          headers: { authorization: auth.authorization },
        },
      );
      expect(found.status).toBe(200);
      const missing = await send(
        "GET",
        lookupTemplate,
        "/transaction/v1/transactions/request-id/never-sent",
        {
          headers: { authorization: auth.authorization },
        },
      );
      expect(missing.status).toBe(404);
      const unauthenticated = await send("POST", balancePath, balancePath, {
        headers: json,
        body: JSON.stringify(card),
      });
      expect(unauthenticated.status).toBe(401);
    });
  }

  test("the image's health check (node healthcheck.mjs) passes against the server and fails with none", async () => {
    const port = new URL(server.url).port;
    const check = (env: Record<string, string>) =>
      spawnSync(process.execPath, ["healthcheck.mjs"], {
        cwd: standalone,
        env: { NODE_ENV: "production", PATH: process.env.PATH, ...env },
      });
    expect(check({ PORT: port }).status).toBe(0);
    expect(check({ PORT: String(await freePort()) }).status).toBe(1);
  });
});
