/**
 * What an upstream that misbehaves must not do to the console: leak the session's secret or its tokens by
 * echoing them, leak card numbers written with spaces or dashes, break the session with an absurd expires_in
 * or oversized token fields, or be described as a credentials problem when it answers HTML or a redirect.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import * as balanceRoute from "@/app/api/inquiries/balance/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as sessionRoute from "@/app/api/session/route";
import * as tokenRoute from "@/app/api/token/route";
import type { ExchangeRecord, SessionInfo, TokenResult } from "@/lib/shared/contracts";
import { call, configure, CookieJar, readJson } from "../support";

const SECRET = "s3cret-Value-Only-The-Session-Knows";
const CARD = "6006491000000001";

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

interface Upstream {
  url: string;
  tokensIssued: string[];
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

function tokenBody(accessToken: string, attributes: Record<string, unknown> = {}, extra: object = {}) {
  return JSON.stringify({
    data: {
      type: "oauth-token",
      attributes: {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: 7200,
        scope: "read:transactions",
        ...attributes,
      },
    },
    meta: { timestamp: "2026-01-01T00:00:00.000Z", request_id: "req-1-a", version: "1.0.0" },
    jsonapi: { version: "1.0" },
    ...extra,
  });
}

/** An upstream on 127.0.0.1 whose token and card endpoints do what the test says. */
async function upstream(onToken: Handler, onCard: Handler): Promise<Upstream> {
  const tokensIssued: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () =>
      (request.url === "/reporting/v1/auth/token" ? onToken : onCard)(request, body, response),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  configure({ EMBEDDED_SANDBOX: "off", CARD_API_AUTH_URL: url, CARD_API_SANDBOX_URL: url });
  return { url, tokensIssued };
}

async function session(): Promise<CookieJar> {
  const jar = new CookieJar();
  const response = await call(
    credentialsRoute.PUT,
    "PUT",
    "/api/session/credentials",
    { body: { client_id: "client-1", client_secret: SECRET } },
    jar,
  );
  expect(response.status).toBe(200);
  return jar;
}

const inquiry = (jar: CookieJar) =>
  call(
    balanceRoute.POST,
    "POST",
    "/api/inquiries/balance",
    { body: { card_number: CARD, location_id: "L1" } },
    jar,
  );

async function visible(response: Response): Promise<string> {
  return `${[...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n")}\n${await response.clone().text()}`;
}

describe("exact secrets and opaque tokens", () => {
  it("never lets an echoed client secret or an opaque token reach the browser", async () => {
    let issued = 0;
    const opaque: string[] = [];
    await upstream(
      (_request, _body, response) => {
        const token = `opaque-${++issued}-Zq81xQ`;
        opaque.push(token);
        // Echoes the secret under a key no list knows, and in a header.
        response.writeHead(200, { "content-type": "application/json", "x-echo": `got ${SECRET}` });
        response.end(tokenBody(token, {}, { diagnostics: { received: SECRET } }));
      },
      (request, _body, response) => {
        const seen = (request.headers.authorization ?? "").replace("Bearer ", "");
        // The first token is "revoked": 401 that repeats it, then the retry's answer repeats both.
        if (seen === opaque[0]) {
          response.writeHead(401, { "content-type": "application/json", "x-seen": seen });
          response.end(JSON.stringify({ errors: [{ detail: `token ${seen} revoked` }] }));
          return;
        }
        response.writeHead(200, { "content-type": "application/json", "x-seen": seen });
        response.end(
          JSON.stringify({ data: { note: `now ${seen}, before ${opaque[0]}`, card_number: CARD } }),
        );
      },
    );
    const jar = await session();
    const token = await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    expect(token.status).toBe(200);
    const tokenText = await visible(token);
    expect(tokenText).not.toContain(SECRET);
    expect(tokenText).not.toContain(opaque[0]);
    expect(tokenText).toContain("[REDACTED]");

    const run = await inquiry(jar);
    expect(run.status).toBe(200);
    const record = await readJson<ExchangeRecord>(run.clone());
    expect(record.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
    const runText = await visible(run);
    for (const value of [SECRET, ...opaque]) expect(runText).not.toContain(value);
    expect(JSON.stringify(record.response.body)).toContain("now [REDACTED], before [REDACTED]");
  });

  it("redacts the secret from the exchange in a token refusal's error details", async () => {
    await upstream(
      (_request, _body, response) => {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ errors: [{ detail: `unknown client secret ${SECRET}` }] }));
      },
      (_request, _body, response) => response.end("{}"),
    );
    const response = await inquiry(await session());
    expect(response.status).toBe(401);
    const text = await visible(response);
    expect(text).toContain("token_refused");
    expect(text).not.toContain(SECRET);
  });
});

describe("card numbers with spaces or dashes", () => {
  it("are masked in upstream bodies and headers", async () => {
    await upstream(
      (_request, _body, response) => response.end(tokenBody("opaque-token-abc")),
      (_request, _body, response) => {
        response.writeHead(404, { "content-type": "application/json", "x-card": "6006-4910-0000-0001" });
        response.end(JSON.stringify({ errors: [{ detail: "card 6006 4910 0000 0001 not found" }] }));
      },
    );
    const text = await visible(await inquiry(await session()));
    expect(text).not.toMatch(/6006[ -]?4910[ -]?0000[ -]?0001/);
    expect(text).toContain("600649******0001");
  });
});

describe("token fields the session cannot hold", () => {
  for (const [label, attributes, issue] of [
    ["an absurd expires_in", { expires_in: 8.64e12 }, /expires_in/],
    ["a scope over 2048 characters", { scope: "read:x ".repeat(400) }, /scope/],
    ["a token_type over 64 characters", { token_type: "B".repeat(65) }, /token_type/],
  ] as const) {
    it(`reports ${label} as a schema issue, never a 500, and GET /api/session still answers`, async () => {
      await upstream(
        (_request, _body, response) => response.end(tokenBody("opaque-token-xyz", attributes)),
        (_request, _body, response) => response.end("{}"),
      );
      const jar = await session();
      const token = await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
      expect(token.status).toBe(200);
      const result = await readJson<TokenResult>(token);
      expect(result.token).toBeNull();
      expect(result.exchange.response.schema_issues?.join("\n")).toMatch(issue);
      const described = await call(sessionRoute.GET, "GET", "/api/session", {}, jar);
      expect(described.status).toBe(200);
      expect((await readJson<SessionInfo>(described)).credentials.source).toBe("session");
    });
  }
});

describe("what the token endpoint answered", () => {
  const cases: [string, Handler, RegExp][] = [
    [
      "an HTML page",
      (_request, _body, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        response.end("<html><body>Sign in</body></html>");
      },
      /not JSON.*text\/html/,
    ],
    [
      "a redirect",
      (_request, _body, response) => {
        response.writeHead(302, { location: "https://login.example/sso" });
        response.end();
      },
      /redirect \(HTTP 302 to https:\/\/login\.example\/sso\).*not follow/,
    ],
    [
      "a credentials refusal",
      (_request, _body, response) => {
        response.writeHead(400, { "content-type": "application/json" });
        response.end('{"errors":[{"code":"invalid_client"}]}');
      },
      /HTTP 400.*check the client credentials/,
    ],
  ];
  for (const [label, onToken, message] of cases) {
    it(`says what happened for ${label}`, async () => {
      await upstream(onToken, (_request, _body, response) => response.end("{}"));
      const response = await inquiry(await session());
      expect(response.status).toBe(401);
      const body = await readJson<{ error: { code: string; message: string } }>(response);
      expect(body.error.code).toBe("token_refused");
      expect(body.error.message).toMatch(message);
      if (label !== "a credentials refusal") expect(body.error.message).not.toMatch(/credentials/);
    });
  }
});
