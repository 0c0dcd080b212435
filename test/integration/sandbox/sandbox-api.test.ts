/**
 * The sandbox against the specification, section by section (API specification §2.2, §2.4, §2.5, §4.1–4.5, §5, §7, §8,
 * docs/design.md §5), once per transport: in-process, over real HTTP, and through the console's route module.
 */
import { SignJWT, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEMO_CLIENTS, PURSES } from "@/lib/sandbox/fixtures";
import { TRANSPORTS, type Connection } from "./transports";

const CARDS = {
  active: "6006491000000001",
  zero: "6006491000000019",
  inactive: "6006491000000027",
  serverError: "6006491000000035",
  slow: "6006491000000043",
  notJson: "6006491000000050",
  rateLimited: "6006491000000068",
};
const GIFT = "/transaction/v1/gift/balance-inquiry";
const BALANCE = "/transaction/v1/balance-inquiry";
const TOKEN = "/reporting/v1/auth/token";
const lookupPath = (requestId: string) =>
  `/transaction/v1/transactions/request-id/${encodeURIComponent(requestId)}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SIGNING_KEY = "integration-test-signing-key-0123456789";
const START = Date.parse("2030-01-01T00:00:00.000Z");

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  body: JSON.stringify(body),
});

const cardBody = (cardNumber: string, extra: Json = {}) => ({
  data: {
    entry_mode: "keyed",
    card_number: cardNumber,
    pin_mode: "none",
    originator: { location_id: "store-042" },
    ...extra,
  },
});

async function expectError(response: Response, status: number, code: string): Promise<Json> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as Json;
  expect(body).toEqual({
    errors: [{ status: String(status), code, title: expect.any(String), detail: expect.any(String) }],
  });
  return body.errors[0];
}

describe.each(TRANSPORTS)("sandbox via $name", (transport) => {
  let connection: Connection;
  let clock: number;
  let requestCounter = 0;

  const send = (path: string, init?: RequestInit) => connection.send(path, init);
  const newRequestId = () => `test-${Date.now()}-${++requestCounter}`;

  async function tokenResponse(clientId = "demo-client", secret = "demo-secret") {
    return send(
      TOKEN,
      json({ client_id: clientId, client_secret: secret, grant_type: "client_credentials" }),
    );
  }
  async function accessToken(clientId = "demo-client"): Promise<string> {
    const response = await tokenResponse(clientId);
    expect(response.status).toBe(200);
    return ((await response.json()) as Json).data.attributes.access_token as string;
  }
  function gift(
    token: string,
    cardNumber: string,
    requestId: string | null = newRequestId(),
    init: RequestInit = {},
  ) {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (requestId !== null) headers["X-Request-Id"] = requestId;
    return send(GIFT, { ...json(cardBody(cardNumber), headers), ...init });
  }
  function balance(token: string, cardNumber: string, headers: Record<string, string> = {}) {
    return send(BALANCE, json(cardBody(cardNumber), { Authorization: `Bearer ${token}`, ...headers }));
  }
  function lookup(token: string, requestId: string) {
    return send(lookupPath(requestId), { headers: { Authorization: `Bearer ${token}` } });
  }

  beforeEach(async () => {
    clock = START;
    connection = await transport.connect({ now: () => clock, signingKey: SIGNING_KEY, slowResponseMs: 20 });
  });
  afterEach(async () => {
    await connection.close();
  });

  describe("token endpoint (API specification §4.1, §2.2)", () => {
    it.each(DEMO_CLIENTS)("issues $clientId a token in the JSON:API envelope", async (client) => {
      const response = await tokenResponse(client.clientId);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const body = (await response.json()) as Json;
      expect(body).toEqual({
        data: {
          type: "oauth-token",
          id: expect.any(String),
          attributes: {
            access_token: expect.any(String),
            token_type: "Bearer",
            expires_in: client.expiresIn,
            scope: client.scopes.join(" "),
          },
        },
        meta: {
          timestamp: "2030-01-01T00:00:00.000Z",
          request_id: expect.any(String),
          version: expect.any(String),
        },
        jsonapi: { version: "1.0" },
      });
      expect(body.meta.timestamp).toMatch(ISO_MS);
      expect(body.meta.request_id).toMatch(/^req-\d+-[0-9a-z]+$/);
      expect(body.meta.version).toMatch(/^\d+\.\d+\.\d+$/);
    });

    it("signs an HS256 JWT whose claims match the client, its scope and expiry", async () => {
      const body = (await (await tokenResponse("demo-short-lived")).json()) as Json;
      const token = body.data.attributes.access_token as string;
      expect(decodeProtectedHeader(token)).toMatchObject({ alg: "HS256", typ: "JWT" });
      const { payload } = await jwtVerify(token, new TextEncoder().encode(SIGNING_KEY), {
        currentDate: new Date(clock),
      });
      expect(payload).toMatchObject({
        sub: "demo-short-lived",
        scope: "read:transactions",
        iat: START / 1000,
        exp: START / 1000 + 60,
        jti: body.data.id,
        iss: expect.any(String),
      });
    });

    it("gives every token and every response its own identifiers", async () => {
      const first = (await (await tokenResponse()).json()) as Json;
      const second = (await (await tokenResponse()).json()) as Json;
      expect(first.data.attributes.access_token).not.toBe(second.data.attributes.access_token);
      expect(decodeJwt(first.data.attributes.access_token).jti).not.toBe(
        decodeJwt(second.data.attributes.access_token).jti,
      );
      expect(first.meta.request_id).not.toBe(second.meta.request_id);
    });

    it("accepts application/json without a charset", async () => {
      const response = await send(TOKEN, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_id: "demo-client",
          client_secret: "demo-secret",
          grant_type: "client_credentials",
        }),
      });
      expect(response.status).toBe(200);
    });

    const secret = "sentinel-secret-5f1c2a";
    const malformed: Array<[string, RequestInit, string]> = [
      [
        "invalid JSON",
        { method: "POST", headers: { "Content-Type": "application/json" }, body: "{client_id:" },
        "invalid_json",
      ],
      [
        "a text/plain body",
        {
          method: "POST",
          headers: { "Content-Type": "text/plain" },
          body: JSON.stringify({ client_secret: secret }),
        },
        "invalid_content_type",
      ],
      [
        "no content type",
        { method: "POST", body: new Blob([JSON.stringify({ client_secret: secret })]) },
        "invalid_content_type",
      ],
      ["a JSON array", json([{ client_secret: secret }]), "invalid_request"],
      ["no client_id", json({ client_secret: secret, grant_type: "client_credentials" }), "invalid_request"],
      [
        "a numeric client_id",
        json({ client_id: 7, client_secret: secret, grant_type: "client_credentials" }),
        "invalid_request",
      ],
      [
        "no client_secret",
        json({ client_id: "demo-client", grant_type: "client_credentials" }),
        "invalid_request",
      ],
      ["no grant_type", json({ client_id: "demo-client", client_secret: secret }), "invalid_request"],
      [
        "grant_type password",
        json({ client_id: "demo-client", client_secret: secret, grant_type: "password" }),
        "unsupported_grant_type",
      ],
      [
        "an unknown client",
        json({ client_id: "nobody", client_secret: "demo-secret", grant_type: "client_credentials" }),
        "invalid_client",
      ],
      [
        "a wrong secret",
        json({ client_id: "demo-client", client_secret: secret, grant_type: "client_credentials" }),
        "invalid_client",
      ],
    ];
    it.each(malformed)(
      "answers 400 to %s, in the JSON:API error shape, never echoing the secret",
      async (_, init, code) => {
        const response = await send(TOKEN, init);
        const text = await response.clone().text();
        const error = await expectError(response, 400, code);
        expect(error.detail.length).toBeGreaterThan(0);
        expect(text).not.toContain(secret);
      },
    );

    it("counts every token request, successful or not", async () => {
      await tokenResponse();
      await tokenResponse("demo-client", "wrong");
      await send(TOKEN, { method: "POST", headers: { "Content-Type": "application/json" }, body: "nope" });
      expect(connection.sandbox.stats().tokenRequests).toBe(3);
    });

    it("answers 405 with Allow to other methods", async () => {
      const response = await send(TOKEN, { method: "GET" });
      expect(response.headers.get("allow")).toBe("POST");
      await expectError(response, 405, "method_not_allowed");
    });

    it("answers 404 in the JSON:API error shape for an unknown path", async () => {
      await expectError(await send("/reporting/v2/auth/token", json({})), 404, "not_found");
      await expectError(await send("/nothing-here"), 404, "not_found");
    });
  });

  describe("authentication of API calls (API specification §4.2, §5, §7)", () => {
    const protectedCalls: Array<[string, (token: string | null) => Promise<Response>]> = [
      [
        "Gift Balance Inquiry",
        (token) => send(GIFT, json(cardBody(CARDS.active), authHeaders(token, "auth-1"))),
      ],
      ["Balance Inquiry", (token) => send(BALANCE, json(cardBody(CARDS.active), authHeaders(token)))],
      ["Lookup by Request Id", (token) => send(lookupPath("auth-1"), { headers: authHeaders(token) })],
    ];
    function authHeaders(token: string | null, requestId?: string): Record<string, string> {
      const headers: Record<string, string> = {};
      if (token !== null) headers.Authorization = token;
      if (requestId) headers["X-Request-Id"] = requestId;
      return headers;
    }
    async function expectInvalidToken(response: Response) {
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
      return expectError(response, 401, "invalid_token");
    }
    const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

    describe.each(protectedCalls)("%s", (_, call) => {
      it("answers 401 invalid_token without a token", async () => {
        await expectInvalidToken(await call(null));
      });

      it.each(["Basic ZGVtbzpkZW1v", "Bearer", "Bearer not-a-jwt", "Bearer a.b.c", "bearer  "])(
        "answers 401 invalid_token to the header %j",
        async (header) => {
          await expectInvalidToken(await call(header));
        },
      );

      it("answers 401 to a token signed with another key", async () => {
        const forged = await new SignJWT({ scope: "read:transactions" })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject("demo-client")
          .setIssuedAt(START / 1000)
          .setExpirationTime(START / 1000 + 7200)
          .setJti("forged")
          .sign(new TextEncoder().encode("another-key"));
        await expectInvalidToken(await call(`Bearer ${forged}`));
      });

      it("answers 401 to an unsigned token (alg none) with valid claims", async () => {
        const claims = decodeJwt(await accessToken());
        const unsigned = `${base64url({ alg: "none", typ: "JWT" })}.${base64url(claims)}.`;
        await expectInvalidToken(await call(`Bearer ${unsigned}`));
      });

      it("answers 401 once the token expires by the sandbox's clock, not a second before", async () => {
        const token = await accessToken("demo-short-lived");
        clock = START + 59_000;
        expect((await call(`Bearer ${token}`)).status).not.toBe(401);
        clock = START + 60_000;
        const error = await expectInvalidToken(await call(`Bearer ${token}`));
        expect(error.detail).toMatch(/expired/);
      });

      it("answers 401 to revoked tokens, and accepts a new one", async () => {
        const token = await accessToken();
        connection.sandbox.revokeTokens();
        await expectInvalidToken(await call(`Bearer ${token}`));
        expect((await call(`Bearer ${await accessToken()}`)).status).not.toBe(401);
      });

      it("answers 403 insufficient_scope to a valid token without read:transactions", async () => {
        const response = await call(`Bearer ${await accessToken("demo-reports-only")}`);
        expect(response.headers.get("www-authenticate")).toBe(
          'Bearer error="insufficient_scope", scope="read:transactions"',
        );
        await expectError(response, 403, "insufficient_scope");
      });
    });

    it("checks in order: token (401), scope (403), body (400), Request Id, card", async () => {
      const badBody = { data: { card_number: "12" } };
      const reportsOnly = await accessToken("demo-reports-only");
      const full = await accessToken();
      await expectError(await send(GIFT, json(badBody, { Authorization: "Bearer x" })), 401, "invalid_token");
      await expectError(
        await send(GIFT, json(badBody, { Authorization: `Bearer ${reportsOnly}` })),
        403,
        "insufficient_scope",
      );
      await expectError(
        await send(GIFT, json(badBody, { Authorization: `Bearer ${full}` })),
        400,
        "invalid_request",
      );
      await expectError(await gift(full, "999999999999", null), 400, "missing_request_id");
    });
  });

  describe("Gift Balance Inquiry (API specification §4.3, §2.4)", () => {
    let token: string;
    beforeEach(async () => {
      token = await accessToken();
    });

    it("answers 201 with every field of the recorded transaction", async () => {
      const requestId = newRequestId();
      const response = await send(
        GIFT,
        json(cardBody(CARDS.active, { originator: { location_id: "store-042", terminal_id: "T-9" } }), {
          Authorization: `Bearer ${token}`,
          "X-Request-Id": requestId,
        }),
      );
      expect(response.status).toBe(201);
      const { data } = (await response.json()) as Json;
      expect(data).toEqual({
        transaction_id: expect.stringMatching(UUID),
        external_id: expect.stringMatching(UUID),
        entry_mode: "keyed",
        card_number: CARDS.active,
        pin_mode: "none",
        pin_verification_result: "none",
        transaction_type: "gift_balance_inquiry",
        response_status: "approved",
        response_code: "transaction_approved",
        response_message: "Approved",
        balance: "25.00",
        originator: { location_id: "store-042", terminal_id: "T-9" },
        target: { scheme: "gift", purse: "gift" },
        timestamp: "2030-01-01T00:00:00.000Z",
      });
      expect(data.external_id).not.toBe(data.transaction_id);
      expect(connection.sandbox.stats().transactions).toBe(1);
    });

    it("answers the Gift purse only, 0.00 on an empty card", async () => {
      const { data } = (await (await gift(token, CARDS.zero)).json()) as Json;
      expect(data).toMatchObject({ response_status: "approved", balance: "0.00" });
      expect(data).not.toHaveProperty("balances");
    });

    it.each([
      [CARDS.inactive, "card_inactive"],
      ["123456789012", "card_not_found"],
      ["1234567890123456789", "card_not_found"],
    ])("records a declined transaction for %s (%s), still 201", async (cardNumber, code) => {
      const requestId = newRequestId();
      const response = await gift(token, cardNumber, requestId);
      expect(response.status).toBe(201);
      const { data } = (await response.json()) as Json;
      expect(data).toMatchObject({
        response_status: "declined",
        response_code: code,
        card_number: cardNumber,
      });
      expect(data.response_message).toEqual(expect.any(String));
      expect(data.transaction_id).toMatch(UUID);
      const found = await lookup(token, requestId);
      expect(found.status).toBe(200);
      expect(((await found.json()) as Json).data).toEqual(data);
    });

    const invalidBodies: Array<[string, unknown]> = [
      ["an 11-digit card number", cardBody("60064910000")],
      ["a 20-digit card number", cardBody("60064910000000000001")],
      ["a card number with letters", cardBody("6006491000000O01")],
      ["a numeric card number", cardBody(6006491000000001 as unknown as string)],
      ["no entry_mode", cardBody(CARDS.active, { entry_mode: undefined })],
      ["a numeric pin_mode", cardBody(CARDS.active, { pin_mode: 0 })],
      ["no originator", cardBody(CARDS.active, { originator: undefined })],
      ["no location_id", cardBody(CARDS.active, { originator: {} })],
      ["a numeric location_id", cardBody(CARDS.active, { originator: { location_id: 42 } })],
      ["no data", { card_number: CARDS.active }],
      ["null", null],
    ];
    it.each(invalidBodies)("answers 400 invalid_request to %s and records nothing", async (_, body) => {
      const response = await send(
        GIFT,
        json(body, { Authorization: `Bearer ${token}`, "X-Request-Id": newRequestId() }),
      );
      await expectError(response, 400, "invalid_request");
      expect(connection.sandbox.stats().transactions).toBe(0);
    });

    it("answers 400 to invalid JSON and to a body that is not application/json", async () => {
      const headers = { Authorization: `Bearer ${token}`, "X-Request-Id": newRequestId() };
      await expectError(
        await send(GIFT, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: "{",
        }),
        400,
        "invalid_json",
      );
      await expectError(
        await send(GIFT, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
          body: "data=1",
        }),
        400,
        "invalid_content_type",
      );
    });

    it("answers 400 missing_request_id without an X-Request-Id, or with an empty one", async () => {
      await expectError(await gift(token, CARDS.active, null), 400, "missing_request_id");
      await expectError(await gift(token, CARDS.active, " "), 400, "missing_request_id");
      expect(connection.sandbox.stats().transactions).toBe(0);
    });

    it.each([["x".repeat(129)], ["two words"], ["tab\tinside"]])(
      "answers 400 invalid_request_id to the X-Request-Id %j",
      async (requestId) => {
        await expectError(await gift(token, CARDS.active, requestId), 400, "invalid_request_id");
      },
    );

    it("answers 409 duplicate_request_id to a reused X-Request-Id, recording nothing new", async () => {
      const requestId = newRequestId();
      const first = (await (await gift(token, CARDS.active, requestId)).json()) as Json;
      await expectError(await gift(token, CARDS.zero, requestId), 409, "duplicate_request_id");
      expect(connection.sandbox.stats().transactions).toBe(1);
      expect(((await (await lookup(token, requestId)).json()) as Json).data).toEqual(first.data);
    });

    it("keeps Request Ids per client: another client may use the same one", async () => {
      const requestId = newRequestId();
      expect((await gift(token, CARDS.active, requestId)).status).toBe(201);
      const other = await accessToken("demo-short-lived");
      expect((await gift(other, CARDS.active, requestId)).status).toBe(201);
      expect((await lookup(other, requestId)).status).toBe(200);
    });

    it("records 60 concurrent inquiries as 60 distinct transactions", async () => {
      const responses = await Promise.all(Array.from({ length: 60 }, () => gift(token, CARDS.active)));
      expect(responses.map((response) => response.status)).toEqual(Array(60).fill(201));
      const ids = await Promise.all(
        responses.map(async (response) => ((await response.json()) as Json).data.transaction_id),
      );
      expect(new Set(ids).size).toBe(60);
      expect(connection.sandbox.stats().transactions).toBe(60);
    });

    // The slow card keeps the first inquiry in progress while the others arrive: a Request Id is taken as soon
    // as an inquiry is accepted, not when its transaction is recorded.
    it.each([
      ["an active card", CARDS.active],
      ["the slow card", CARDS.slow],
    ])(
      "lets exactly one of 25 concurrent inquiries with one Request Id through (%s)",
      async (_, cardNumber) => {
        const requestId = newRequestId();
        const responses = await Promise.all(
          Array.from({ length: 25 }, () => gift(token, cardNumber, requestId)),
        );
        const statuses = responses.map((response) => response.status).sort();
        expect(statuses).toEqual([201, ...Array(24).fill(409)]);
        expect(connection.sandbox.stats().transactions).toBe(1);
      },
    );
  });

  describe("Lookup Transaction by Request Id (docs/design.md §5)", () => {
    it("finds the recorded transaction, and only that client's", async () => {
      const token = await accessToken();
      const requestId = "order-17/a:b?c#d&e=%41";
      const created = (await (await gift(token, CARDS.active, requestId)).json()) as Json;
      const found = await lookup(token, requestId);
      expect(found.status).toBe(200);
      expect(await found.json()).toEqual({ data: created.data, meta: { request_id: requestId } });
      await expectError(await lookup(token, "never-used"), 404, "transaction_not_found");
      await expectError(
        await lookup(await accessToken("demo-short-lived"), requestId),
        404,
        "transaction_not_found",
      );
    });

    it("answers 405 with Allow: GET to other methods", async () => {
      const response = await send(lookupPath("x"), {
        method: "DELETE",
        headers: { Authorization: "Bearer x" },
      });
      expect(response.headers.get("allow")).toBe("GET");
      await expectError(response, 405, "method_not_allowed");
    });
  });

  describe("Balance Inquiry (API specification §4.4, §2.5)", () => {
    let token: string;
    beforeEach(async () => {
      token = await accessToken();
    });

    it("answers 200 with every purse as a two-decimal string", async () => {
      const response = await balance(token, CARDS.active);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        data: {
          card_number: CARDS.active,
          system_time: "2030-01-01T00:00:00.000Z",
          balances: {
            gift: "25.00",
            gift_rewards: "5.00",
            loyalty: "120.00",
            loyalty_rewards: "10.00",
            discount: "0.00",
            promotional: "15.00",
            punch: "7.00",
            punch_rewards: "1.00",
          },
        },
      });
    });

    it("answers an empty card with 0.00 in all eight purses, and an inactive card with 200", async () => {
      const zero = (await (await balance(token, CARDS.zero)).json()) as Json;
      expect(zero.data.balances).toEqual(Object.fromEntries(PURSES.map((purse) => [purse, "0.00"])));
      const inactive = await balance(token, CARDS.inactive);
      expect(inactive.status).toBe(200);
      expect(Object.keys(((await inactive.json()) as Json).data.balances)).toEqual([...PURSES]);
    });

    it("answers 404 card_not_found for an unknown card", async () => {
      await expectError(await balance(token, "123456789012"), 404, "card_not_found");
    });

    it("records nothing and cannot be found by Request Id (API specification §4.5)", async () => {
      const requestId = newRequestId();
      expect((await balance(token, CARDS.active, { "X-Request-Id": requestId })).status).toBe(200);
      expect(connection.sandbox.stats().transactions).toBe(0);
      await expectError(await lookup(token, requestId), 404, "transaction_not_found");
      // …and the Request Id stays free for a Gift Balance Inquiry.
      expect((await gift(token, CARDS.active, requestId)).status).toBe(201);
    });

    it("answers 400 to an invalid body", async () => {
      await expectError(
        await send(BALANCE, json(cardBody("1234"), { Authorization: `Bearer ${token}` })),
        400,
        "invalid_request",
      );
    });
  });

  describe("fault cards (docs/design.md §5)", () => {
    let token: string;
    beforeEach(async () => {
      token = await accessToken();
    });

    it("…035 answers 500 with a JSON:API error, records nothing and frees the Request Id", async () => {
      const requestId = newRequestId();
      await expectError(await gift(token, CARDS.serverError, requestId), 500, "internal_error");
      await expectError(await balance(token, CARDS.serverError), 500, "internal_error");
      expect(connection.sandbox.stats().transactions).toBe(0);
      expect((await gift(token, CARDS.active, requestId)).status).toBe(201);
    });

    it("…068 answers 429 with Retry-After: 2, and a retry with the same Request Id is accepted", async () => {
      const requestId = newRequestId();
      const limited = await gift(token, CARDS.rateLimited, requestId);
      expect(limited.headers.get("retry-after")).toBe("2");
      await expectError(limited, 429, "rate_limited");
      const limitedBalance = await balance(token, CARDS.rateLimited);
      expect(limitedBalance.headers.get("retry-after")).toBe("2");
      await expectError(limitedBalance, 429, "rate_limited");
      expect((await gift(token, CARDS.active, requestId)).status).toBe(201);
    });

    it("…050 answers 201/200 with a body that is not JSON; the gift transaction is still recorded", async () => {
      const requestId = newRequestId();
      const giftResponse = await gift(token, CARDS.notJson, requestId);
      expect(giftResponse.status).toBe(201);
      expect(giftResponse.headers.get("content-type")).toMatch(/^text\/html/);
      const text = await giftResponse.text();
      expect(() => JSON.parse(text)).toThrow();
      const found = (await (await lookup(token, requestId)).json()) as Json;
      expect(found.data).toMatchObject({ card_number: CARDS.notJson, response_status: "approved" });

      const balanceResponse = await balance(token, CARDS.notJson);
      expect(balanceResponse.status).toBe(200);
      expect(balanceResponse.headers.get("content-type")).toMatch(/^text\/html/);
      expect(() => JSON.parse(text)).toThrow();
    });

    it("…043 answers normally once slowResponseMs has passed", async () => {
      const giftResponse = await gift(token, CARDS.slow);
      expect(giftResponse.status).toBe(201);
      expect(((await giftResponse.json()) as Json).data.response_status).toBe("approved");
      expect((await balance(token, CARDS.slow)).status).toBe(200);
    });
  });

  describe("test hooks", () => {
    it("are absent unless enabled", async () => {
      await expectError(await send("/__sandbox/stats"), 404, "not_found");
      await expectError(await send("/__sandbox/reset", { method: "POST" }), 404, "not_found");
    });
  });
});

describe.each(TRANSPORTS)(
  "sandbox via $name, with test hooks and a slow card that never answers",
  (transport) => {
    let connection: Connection;
    beforeEach(async () => {
      connection = await transport.connect({ testHooks: true, slowResponseMs: 600_000 });
    });
    afterEach(async () => {
      await connection.close();
    });

    async function accessToken(): Promise<string> {
      const response = await connection.send(
        TOKEN,
        json({ client_id: "demo-client", client_secret: "demo-secret", grant_type: "client_credentials" }),
      );
      return ((await response.json()) as Json).data.attributes.access_token as string;
    }

    it("revoke-tokens, stats and reset work over the transport", async () => {
      const token = await accessToken();
      const giftResponse = await connection.send(
        GIFT,
        json(cardBody(CARDS.active), { Authorization: `Bearer ${token}`, "X-Request-Id": "hook-1" }),
      );
      expect(giftResponse.status).toBe(201);
      const stats = await connection.send("/__sandbox/stats");
      expect(stats.status).toBe(200);
      expect(await stats.json()).toEqual({ token_requests: 1, transactions: 1 });

      const revoke = await connection.send("/__sandbox/revoke-tokens", { method: "POST" });
      expect(revoke.status).toBe(204);
      const afterRevoke = await connection.send(
        BALANCE,
        json(cardBody(CARDS.active), { Authorization: `Bearer ${token}` }),
      );
      expect(afterRevoke.status).toBe(401);

      expect((await connection.send("/__sandbox/reset", { method: "POST" })).status).toBe(204);
      expect(await (await connection.send("/__sandbox/stats")).json()).toEqual({
        token_requests: 0,
        transactions: 0,
      });
      expect((await connection.send("/__sandbox/reset")).status).toBe(405);
    });

    it("ends the slow card's wait when the client aborts, recording nothing", async () => {
      const started = vi.fn();
      const settled = vi.fn();
      const handle = connection.sandbox.handle.bind(connection.sandbox);
      // Observe the sandbox itself, whichever transport carried the request.
      connection.sandbox.handle = async (request) => {
        started(new URL(request.url).pathname);
        const response = await handle(request);
        settled(response.status);
        return response;
      };
      const token = await accessToken();
      const aborter = new AbortController();
      const pending = connection.send(GIFT, {
        ...json(cardBody(CARDS.slow), { Authorization: `Bearer ${token}`, "X-Request-Id": "slow-1" }),
        signal: aborter.signal,
      });
      pending.catch(() => undefined);
      await vi.waitFor(() => expect(started).toHaveBeenCalledTimes(2)); // the token request, then the inquiry
      aborter.abort();
      await expect(pending).rejects.toThrow();
      await vi.waitFor(() => expect(settled).toHaveBeenCalledTimes(2), { timeout: 30_000 });
      expect(connection.sandbox.stats().transactions).toBe(0);
      const retry = await connection.send(
        GIFT,
        json(cardBody(CARDS.active), { Authorization: `Bearer ${token}`, "X-Request-Id": "slow-1" }),
      );
      expect(retry.status).toBe(201);
    });
  },
);
