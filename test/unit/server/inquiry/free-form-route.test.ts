/**
 * `POST /api/requests` in-process against the embedded sandbox: an inquiry's token lifecycle (a first token,
 * renew once after a 401 and send the same request again), a Gift Balance Inquiry found by the lookup of its
 * Request Id, the card of a malformed body masked in the record, and bad input as a 4xx before anything is sent.
 */
import { beforeEach, describe, expect, it } from "vitest";
import * as requestsRoute from "@/app/api/requests/route";
import * as tokenRoute from "@/app/api/token/route";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { runsAsHar, runsAsPostmanCollection } from "@/lib/shared/run-export";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import { call, configure, CookieJar, demoSession, readJson } from "../support";

const CARD = "6006491000000001";
const sandbox = () => getEmbeddedSandbox();
const cardBody = (extra = "") =>
  `{"data":{"entry_mode":"keyed","card_number":"${CARD}","pin_mode":"none","originator":{"location_id":"L1"}}${extra}}`;

beforeEach(() => {
  configure();
  sandbox().reset();
});

const send = (jar: CookieJar, body: unknown) =>
  call(requestsRoute.POST, "POST", "/api/requests", { body }, jar);

describe("POST /api/requests", () => {
  it("gets a first token, and after a 401 renews once and sends the same request again", async () => {
    const jar = await demoSession();
    const first = await readJson<ExchangeRecord>(
      await send(jar, { operation: "balance_inquiry", body: cardBody() }),
    );
    expect(first).toMatchObject({ free_form: true, response: { status: 200 } });
    expect(first.token_events.map((event) => event.type)).toEqual(["acquired"]);

    await call(tokenRoute.POST, "POST", "/api/token", { body: {} }, jar);
    sandbox().revokeTokens();
    const before = sandbox().stats();
    const response = await send(jar, {
      operation: "gift_balance_inquiry",
      headers: { "X-Request-Id": "ff-retry-1", "X-Trace": "t" },
      body: cardBody(),
    });
    expect(response.status).toBe(200);
    const record = await readJson<ExchangeRecord>(response);
    expect(record).toMatchObject({ request_id: "ff-retry-1", response: { status: 201 }, free_form: true });
    expect(record.request.headers).toMatchObject({ "X-Request-Id": "ff-retry-1", "X-Trace": "t" });
    expect(record.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
    const after = sandbox().stats();
    expect(after.tokenRequests).toBe(before.tokenRequests + 1);
    expect(after.transactions).toBe(before.transactions + 1);

    const lookup = await readJson<ExchangeRecord>(
      await send(jar, { operation: "lookup_transaction", request_id: "ff-retry-1" }),
    );
    expect(lookup).toMatchObject({ operation: "transaction_lookup", response: { status: 200 } });
    expect(lookup.request).toMatchObject({ method: "GET", body: null });
    expect(lookup.request.url).toMatch(/\/transaction\/v1\/transactions\/request-id\/ff-retry-1$/);
  });

  it("masks the card of a malformed body, and of extra fields, in the whole record", async () => {
    const jar = await demoSession();
    const malformed = `{"data": {"card_number": "${CARD}", "note": "6006 4910 0000 0001"`;
    const response = await send(jar, { operation: "balance_inquiry", body: malformed });
    const text = await response.clone().text();
    const record = await readJson<ExchangeRecord>(response);
    expect(record.response.status).toBe(400);
    expect(record.request.body).toBe(
      `{"data": {"card_number": "600649******0001", "note": "600649******0001"`,
    );
    expect(text).not.toContain(CARD);
    expect(text).not.toContain("6006 4910 0000 0001");
  });

  it("masks a card written with JSON \\u escapes in the answer and in HAR and Postman exports of it", async () => {
    const jar = await demoSession();
    const escaped = [...CARD].map((digit) => `\\u003${digit}`).join("");
    for (const written of [escaped, `${CARD.slice(0, 15)}\\u0031`]) {
      const response = await send(jar, {
        operation: "balance_inquiry",
        body: `{"data":{"entry_mode":"keyed","card_number":"${written}","pin_mode":"none","originator":{"location_id":"L1"}},"note":"6006  4910  0000  0001"}`,
      });
      const text = await response.clone().text();
      const record = await readJson<ExchangeRecord>(response);
      // The upstream read it as the card: the sandbox answered for it.
      expect(record.response.status).toBe(200);
      expect(JSON.parse(record.request.body as string)).toMatchObject({
        data: { card_number: "600649******0001" },
        note: "600649******0001",
      });
      const exported = [
        text,
        JSON.stringify(runsAsHar([record], "test")),
        JSON.stringify(runsAsPostmanCollection([record], "test")),
      ];
      for (const shown of exported) {
        expect(shown.replace(/\\+u003(\d)/g, "$1").replace(/\D/g, "")).not.toContain(CARD.slice(0, 11));
      }
    }
  });

  it("refuses bad input with a 4xx, sending nothing", async () => {
    const jar = await demoSession();
    const before = sandbox().stats();
    const cases: [unknown, number, string][] = [
      [{ operation: "balance_inquiry", headers: { Authorization: "Bearer x" } }, 400, "header_not_allowed"],
      [{ operation: "balance_inquiry", headers: { "x y": "1" } }, 400, "validation_failed"],
      [{ operation: "balance_inquiry", headers: { A: "1", a: "2" } }, 400, "validation_failed"],
      [{ operation: "token" }, 400, "validation_failed"],
      [{ operation: "lookup_transaction", request_id: "x", body: "{}" }, 400, "validation_failed"],
      [
        { operation: "gift_balance_inquiry", request_id: "a", headers: { "X-Request-Id": "b" } },
        400,
        "validation_failed",
      ],
      [{ operation: "balance_inquiry", body: "é".repeat(8193) }, 400, "validation_failed"],
      [{ operation: "balance_inquiry", environment: "production" }, 409, "environment_changed"],
    ];
    for (const [body, status, code] of cases) {
      const response = await send(jar, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(await readJson(response), code).toMatchObject({ error: { code } });
    }
    expect(sandbox().stats().transactions).toBe(before.transactions);
  });
});
