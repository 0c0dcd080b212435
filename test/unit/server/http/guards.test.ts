/**
 * Guards on every route, in-process: the CSRF matrix (Origin), content type, body size, JSON, validation,
 * control characters, 405/404 in the one error shape, no-store everywhere, and property-based fuzzing of
 * request bodies (only 200 or 4xx, never 5xx).
 */
import fc from "fast-check";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as catchAllRoute from "@/app/api/[...path]/route";
import * as healthRoute from "@/app/api/health/route";
import * as balanceRoute from "@/app/api/inquiries/balance/route";
import * as giftRoute from "@/app/api/inquiries/gift-balance/route";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as environmentRoute from "@/app/api/session/environment/route";
import * as sessionRoute from "@/app/api/session/route";
import * as tokenRoute from "@/app/api/token/route";
import { PEER_ADDRESS_HEADER, setPeerHeaderStamped } from "@/lib/server/util/peer-address";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import { call, configure, CookieJar, readJson, saveDemoCredentials } from "../support";

type Handler = (request: Request) => Promise<Response>;

interface ErrorShape {
  error: { code: string; message: string; details?: { fields?: Record<string, string[]> } };
}

const MUTATING_ROUTES: [string, string, Handler, unknown][] = [
  ["PUT", "/api/session/credentials", credentialsRoute.PUT, { profile: "demo" }],
  ["PUT", "/api/session/environment", environmentRoute.PUT, { environment: "embedded" }],
  ["DELETE", "/api/session", sessionRoute.DELETE, undefined],
  ["POST", "/api/token", tokenRoute.POST, {}],
  [
    "POST",
    "/api/inquiries/gift-balance",
    giftRoute.POST,
    { card_number: "6006491000000001", location_id: "L" },
  ],
  [
    "POST",
    "/api/inquiries/balance",
    balanceRoute.POST,
    { card_number: "6006491000000001", location_id: "L" },
  ],
];

beforeAll(() => configure());
beforeEach(() => getEmbeddedSandbox().reset());

function expectErrorShape(body: unknown, code: string): void {
  expect(body).toMatchObject({ error: { code, message: expect.any(String) } });
  expect(
    Object.keys((body as ErrorShape).error).every((key) => ["code", "message", "details"].includes(key)),
  ).toBe(true);
}

describe("Origin (CSRF)", () => {
  const refused: [string, Record<string, string>][] = [
    ["cross-site origin", { origin: "https://evil.example" }],
    ["null origin", { origin: "null" }],
    ["another port of the same host", { origin: "http://localhost:3001" }],
    ["https origin for an http console", { origin: "https://localhost:3000" }],
    ["sub-domain", { origin: "http://evil.localhost:3000" }],
    ["malformed origin", { origin: "not a url" }],
  ];

  for (const [method, path, handler, body] of MUTATING_ROUTES) {
    it(`${method} ${path}: 403 for foreign, null and missing origins; accepted from its own origin`, async () => {
      for (const [label, headers] of refused) {
        const response = await call(handler, method, path, { body, headers });
        expect(response.status, label).toBe(403);
        expect(response.headers.get("cache-control")).toBe("no-store");
        expectErrorShape(await response.json(), "invalid_origin");
      }
      const missing = await call(handler, method, path, { body, origin: null });
      expect(missing.status).toBe(403);
      const jar = new CookieJar();
      await saveDemoCredentials(jar);
      const accepted = await call(handler, method, path, { body }, jar);
      expect(accepted.status, await accepted.clone().text()).toBe(200);
    });
  }

  it("compares with the forwarded host and protocol only behind a trusted proxy", async () => {
    configure({ PUBLIC_URL: "https://console.example", TRUSTED_PROXIES: "10.0.0.0/8" });
    setPeerHeaderStamped(true);
    try {
      const headers = { "x-forwarded-host": "console.example", "x-forwarded-proto": "https" };
      const viaProxy = { ...headers, [PEER_ADDRESS_HEADER]: "10.1.2.3" };
      const ok = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", {
        body: { profile: "demo" },
        headers: { ...viaProxy, origin: "https://console.example" },
      });
      expect(ok.status).toBe(200);
      const refused = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", {
        body: { profile: "demo" },
        headers: { ...viaProxy, origin: "http://localhost:3000" },
      });
      expect(refused.status).toBe(403);
      // The same headers from a peer that is not a trusted proxy are not believed.
      const direct = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", {
        body: { profile: "demo" },
        headers: { ...headers, [PEER_ADDRESS_HEADER]: "192.168.7.7", origin: "https://console.example" },
      });
      expect(direct.status).toBe(403);
    } finally {
      setPeerHeaderStamped(false);
      configure();
    }
  });
});

describe("content type, size and JSON", () => {
  it("answers 415 to a mutating call whose body is not application/json", async () => {
    for (const contentType of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "application/json; charset=latin1",
    ]) {
      const response = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", {
        rawBody: '{"profile":"demo"}',
        headers: { "content-type": contentType },
      });
      expect(response.status, contentType).toBe(415);
      expectErrorShape(await response.json(), "unsupported_media_type");
    }
    const missing = await call(tokenRoute.POST, "POST", "/api/token", { rawBody: "" });
    expect(missing.status).toBe(415);
  });

  it("accepts application/json with charset=utf-8", async () => {
    const response = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", {
      rawBody: '{"profile":"demo"}',
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(response.status).toBe(200);
  });

  it("answers 413 beyond 16 KB, with or without Content-Length", async () => {
    const big = JSON.stringify({ card_number: "6006491000000001", location_id: "x".repeat(17_000) });
    const declared = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", {
      rawBody: big,
      headers: { "content-type": "application/json", "content-length": String(big.length) },
    });
    expect(declared.status).toBe(413);
    expectErrorShape(await declared.json(), "payload_too_large");
    const streamed = await balanceRoute.POST(
      new Request("http://localhost:3000/api/inquiries/balance", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(" ".repeat(1024)));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
  });

  it("answers 400 invalid_json to a body that is not JSON", async () => {
    for (const rawBody of ["{", "card=1", "", "{'a':1}"]) {
      const response = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", {
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(response.status, rawBody).toBe(400);
      expectErrorShape(await response.json(), "invalid_json");
    }
  });
});

describe("validation", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["short card", { card_number: "12345678901", location_id: "L" }, "card_number"],
    ["long card", { card_number: "12345678901234567890", location_id: "L" }, "card_number"],
    ["card with letters", { card_number: "60064910000000a1", location_id: "L" }, "card_number"],
    ["card with spaces", { card_number: "6006 4910 0000 0001", location_id: "L" }, "card_number"],
    ["card as a number", { card_number: 6006491000000001, location_id: "L" }, "card_number"],
    ["missing card", { location_id: "L" }, "card_number"],
    ["empty location", { card_number: "6006491000000001", location_id: "" }, "location_id"],
    ["long location", { card_number: "6006491000000001", location_id: "x".repeat(129) }, "location_id"],
    ["control in location", { card_number: "6006491000000001", location_id: "a\nb" }, "location_id"],
    ["DEL in location", { card_number: "6006491000000001", location_id: "a\u007fb" }, "location_id"],
    [
      "bidi override in pin_mode",
      { card_number: "6006491000000001", location_id: "L", pin_mode: "\u202enone" },
      "pin_mode",
    ],
    ["unknown field", { card_number: "6006491000000001", location_id: "L", host: "evil.example" }, "host"],
    [
      "control character in an unknown key",
      { card_number: "6006491000000001", location_id: "L", "a\u0000": 1 },
      "a\u0000",
    ],
  ];

  for (const [label, body, field] of cases) {
    it(`400 validation_failed naming ${JSON.stringify(field)}: ${label}`, async () => {
      const jar = new CookieJar();
      await saveDemoCredentials(jar);
      const response = await call(giftRoute.POST, "POST", "/api/inquiries/gift-balance", { body }, jar);
      expect(response.status).toBe(400);
      const error = (await readJson<ErrorShape>(response)).error;
      expect(error.code).toBe("validation_failed");
      expect(Object.keys(error.details?.fields ?? {})).toContain(field);
      // The rejected value is never repeated back.
      expect(JSON.stringify(error)).not.toContain("6006491000000001");
    });
  }

  it("names fields that shadow Object.prototype without failing (found by fuzzing)", async () => {
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const rawBody = `{"card_number":"6006491000000001","location_id":"L","${key}":1}`;
      const response = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", {
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(response.status, key).toBe(400);
      const fields = (await readJson<ErrorShape>(response)).error.details?.fields ?? {};
      expect(Object.keys(fields)).toContain(key);
    }
  });

  it("refuses a body that is not an object", async () => {
    for (const body of [[], "text", 42, null]) {
      const response = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", { body });
      expect(response.status).toBe(400);
      expect((await readJson<ErrorShape>(response)).error.details?.fields).toHaveProperty("(body)");
    }
  });
});

describe("methods and paths", () => {
  it("answers 405 in the error shape with Allow for methods a route does not serve", async () => {
    const checks: [Handler | undefined, string, string][] = [
      [(tokenRoute as Record<string, unknown>).GET as Handler, "GET", "POST, OPTIONS"],
      [(sessionRoute as Record<string, unknown>).POST as Handler, "POST", "GET, DELETE, OPTIONS"],
      [(healthRoute as Record<string, unknown>).DELETE as Handler, "DELETE", "GET, OPTIONS"],
      [(balanceRoute as Record<string, unknown>).PUT as Handler, "PUT", "POST, OPTIONS"],
    ];
    for (const [handler, method, allow] of checks) {
      expect(handler).toBeTypeOf("function");
      const response = await call(handler as Handler, method, "/api/x", method === "GET" ? {} : { body: {} });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expectErrorShape(await response.json(), "method_not_allowed");
    }
  });

  it("answers 404 not_found for unknown API paths", async () => {
    const response = await call(catchAllRoute.GET, "GET", "/api/nope");
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expectErrorShape(await response.json(), "not_found");
  });

  it("serves the health check", async () => {
    const response = await call(healthRoute.GET, "GET", "/api/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("fuzzing request bodies (fast-check)", () => {
  const routes: [string, Handler][] = [
    ["/api/session/credentials", credentialsRoute.PUT],
    ["/api/session/environment", environmentRoute.PUT],
    ["/api/inquiries/gift-balance", giftRoute.POST],
    ["/api/inquiries/balance", balanceRoute.POST],
    ["/api/token", tokenRoute.POST],
  ];
  const methodOf = (path: string) => (path.startsWith("/api/session/") ? "PUT" : "POST");

  const cardLike = fc.oneof(
    fc.stringMatching(/^\d{12,19}$/).filter((card) => card !== "6006491000000043"),
    fc.string({ maxLength: 25 }),
    fc.constantFrom("6006491000000001", "6006491000000035", "6006491000000050", "6006491000000068"),
  );
  const inquiryLike = fc.record(
    {
      card_number: cardLike,
      location_id: fc.string({ maxLength: 80, unit: "binary" }),
      entry_mode: fc.oneof(fc.constant("keyed"), fc.string({ maxLength: 40 })),
      pin_mode: fc.oneof(fc.constant("none"), fc.string({ maxLength: 40 })),
      request_id: fc.oneof(fc.uuid(), fc.string({ maxLength: 140 })),
    },
    { requiredKeys: [] },
  );
  const bodies = fc.oneof(
    inquiryLike.map((value) => JSON.stringify(value)),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    fc
      .record(
        { client_id: fc.string(), client_secret: fc.string(), profile: fc.string() },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
    fc.record({ environment: fc.string() }).map((value) => JSON.stringify(value)),
    // Keys that shadow Object.prototype, mixed with real field names.
    fc
      .dictionary(
        fc.constantFrom(
          "__proto__",
          "constructor",
          "toString",
          "valueOf",
          "card_number",
          "location_id",
          "profile",
        ),
        fc.jsonValue({ maxDepth: 2 }),
      )
      .map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 200, unit: "binary" }),
  );

  it("answers only 200 or 4xx, never 5xx, whatever the body", async () => {
    const jar = new CookieJar();
    await saveDemoCredentials(jar);
    const cookie = jar.header() ?? "";
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), bodies, async ([path, handler], rawBody) => {
        const response = await call(handler, methodOf(path), path, {
          rawBody,
          headers: { "content-type": "application/json", cookie },
        });
        const status = response.status;
        const text = await response.text();
        if (!(status === 200 || (status >= 400 && status < 500))) {
          throw new Error(`${path} answered ${status}: ${text}`);
        }
        if (status >= 400) expect(JSON.parse(text)).toMatchObject({ error: { code: expect.any(String) } });
      }),
      { numRuns: 300, verbose: true },
    );
  });
});
