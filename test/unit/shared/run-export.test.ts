/** History runs exported for Postman and as HAR: requests as sent, cards as shown, no token or secret. */
import { describe, expect, it } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { outcomeUnknownRecord } from "@/lib/client/outcome-unknown";
import { ApiClientError } from "@/lib/client/fetcher";
import { postmanItemName, runsAsHar, runsAsPostmanCollection } from "@/lib/shared/run-export";

const record: ExchangeRecord = {
  id: "run-1",
  operation: "balance_inquiry",
  environment: "embedded",
  started_at: "2026-11-24T10:00:00.000Z",
  duration_ms: 12.5,
  request: {
    method: "POST",
    url: "http://localhost:3000/sandbox/transaction/v1/balance-inquiry",
    headers: { "Content-Type": "application/json", Authorization: "Bearer [REDACTED]" },
    body: { data: { entry_mode: "keyed", card_number: "600649******0001", pin_mode: "none" } },
  },
  response: {
    status: 200,
    headers: { "content-type": "application/json" },
    body: { data: { card_number: "600649******0001", balances: { gift: "25.00" } } },
  },
  token_events: [],
};
const token: ExchangeRecord = {
  ...record,
  id: "run-2",
  operation: "token",
  request: {
    method: "POST",
    url: "http://localhost:3000/sandbox/reporting/v1/auth/token",
    headers: { "Content-Type": "application/json; charset=utf-8" },
    body: { client_id: "demo-client", client_secret: "[REDACTED]", grant_type: "client_credentials" },
  },
};

describe("history exports", () => {
  it("makes each run a Postman request as it was sent, with the answer as its example", () => {
    const collection = runsAsPostmanCollection([record, token], "runs");
    expect(collection.info.schema).toBe(
      "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    );
    const [inquiry, tokenItem] = collection.item;
    expect(inquiry?.request).toMatchObject({ method: "POST", url: record.request.url });
    // The token comes from the collection's auth, which its pre-request script fills.
    expect(inquiry?.request.header.map(({ key }) => key)).not.toContain("Authorization");
    expect(collection.auth.bearer[0]?.value).toBe("{{accessToken}}");
    expect(collection.event[0]?.script.exec.join("\n")).toContain("pm.sendRequest");
    expect(collection.variable).toContainEqual({
      key: "authUrl",
      value: "http://localhost:3000/sandbox",
      type: "string",
    });
    expect(collection.variable).toContainEqual({ key: "client_id", value: "demo-client", type: "string" });
    expect(tokenItem?.request).toMatchObject({ auth: { type: "noauth" } });
    // The API refuses a masked number: the full one is a variable to fill in.
    expect(inquiry?.request.body?.raw).toContain('"card_number": "{{card_0001}}"');
    expect(collection.variable).toContainEqual(expect.objectContaining({ key: "card_0001", value: "" }));
    expect(inquiry?.response[0]).toMatchObject({ code: 200 });
    expect(tokenItem?.request.body?.raw).toContain('"client_secret": "{{client_secret}}"');
    expect(JSON.stringify(collection)).not.toContain("[REDACTED]");
  });

  it("writes HAR 1.2 with one entry per run", () => {
    const har = runsAsHar([record], "test");
    expect(har.log.version).toBe("1.2");
    const [entry] = har.log.entries;
    expect(entry).toMatchObject({
      startedDateTime: record.started_at,
      time: 12.5,
      request: { method: "POST", url: record.request.url, httpVersion: "HTTP/1.1" },
      response: { status: 200, content: { mimeType: "application/json" } },
    });
    expect(entry?.request.postData?.text).toContain("600649******0001");
    expect(entry?.response.content.text).toContain('"gift": "25.00"');
  });
});

describe("a free-form request in the exports", () => {
  const body = '{"data":{"card_number":"600649******0001","extra":true},\n "x": 1}';
  const freeForm: ExchangeRecord = {
    ...record,
    id: "run-3",
    operation: "gift_balance_inquiry",
    free_form: true,
    request_id: "rid-9",
    request: {
      ...record.request,
      url: "http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry",
      headers: {
        "Content-Type": "text/plain",
        "X-Trace": "7",
        Authorization: "Bearer [REDACTED]",
        "X-Request-Id": "rid-9",
      },
      body,
    },
  };

  it("keeps the body raw, as sent, with its card a variable and a fresh Request Id per send", () => {
    const [item] = runsAsPostmanCollection([freeForm], "runs").item;
    expect(item?.request.body).toEqual({
      mode: "raw",
      raw: '{"data":{"card_number":"{{card_0001}}","extra":true},\n "x": 1}',
      options: { raw: { language: "text" } },
    });
    expect(item?.request.header).toContainEqual({ key: "X-Trace", value: "7" });
    expect(item?.event?.[0]?.script.exec.join("\n")).toContain('upsert({ key: "X-Request-Id"');
    const har = runsAsHar([freeForm], "test");
    expect(har.log.entries[0]?.request.postData).toEqual({ mimeType: "text/plain", text: body });
  });
});

describe("a Gift Balance Inquiry that got no answer", () => {
  const upstream = "http://127.0.0.1:3412/sandbox/transaction/v1/gift/balance-inquiry";
  const error = new ApiClientError("upstream_timeout", 504, "The upstream did not answer within 1500 ms.", {
    operation: "gift_balance_inquiry",
    url: upstream,
    request_id: "rid-1",
  });
  const noAnswer = outcomeUnknownRecord({
    input: {
      environment: "embedded",
      card_number: "6006491000000043",
      location_id: "store-001",
      entry_mode: "keyed",
      pin_mode: "none",
    },
    requestId: "rid-1",
    error,
    environment: "embedded",
    startedAt: new Date("2026-11-24T10:00:00.000Z"),
    durationMs: 1500,
  });

  it("keeps the upstream address and the request as sent", () => {
    expect(noAnswer?.request.url).toBe(upstream);
    expect(noAnswer?.request.headers).toEqual({
      "Content-Type": "application/json",
      Accept: "application/json",
      Authorization: "Bearer [REDACTED]",
      "X-Request-Id": "rid-1",
    });
    expect(JSON.stringify(noAnswer)).not.toContain("6006491000000043");
  });

  it("exports as HAR and Postman, with a fresh Request Id per send", () => {
    const runs = [noAnswer as ExchangeRecord, record];
    const har = runsAsHar(runs, "test");
    expect(har.log.entries[0]?.request.url).toBe(upstream);
    const [item] = runsAsPostmanCollection(runs, "runs").item;
    expect(item?.request.url).toBe(upstream);
    expect(item?.event?.[0]?.script.exec.join("\n")).toContain('upsert({ key: "X-Request-Id"');
  });

  it("a record kept with the console's route (before the address was kept) does not fail the HAR export", () => {
    const old = { ...record, request: { ...record.request, url: "/api/inquiries/gift-balance" } };
    expect(runsAsHar([old, record], "test").log.entries).toHaveLength(2);
  });
});

describe("Postman requests named as a person would", () => {
  it("says the operation, the card's last 4 and the result", () => {
    expect(postmanItemName(record)).toBe("Balance Inquiry · …0001 · 200");
    expect(postmanItemName(token)).toBe("Token request · 200");
    const approved: ExchangeRecord = {
      ...record,
      operation: "gift_balance_inquiry",
      response: { ...record.response, status: 201, body: { data: { response_status: "approved" } } },
    };
    expect(postmanItemName(approved)).toBe("Gift Balance Inquiry · …0001 · 201 approved");
    const noAnswer: ExchangeRecord = { ...approved, response: { status: 0, headers: {}, body: null } };
    expect(postmanItemName(noAnswer)).toBe("Gift Balance Inquiry · …0001 · no answer");
    expect(runsAsPostmanCollection([approved], "runs").item[0]?.name).toBe(
      "Gift Balance Inquiry · …0001 · 201 approved",
    );
  });
});

describe("runs imported from another console, exported here", () => {
  const here = [
    { name: "embedded", base_url: "http://console.here/sandbox", auth_url: "http://console.here/sandbox" },
    { name: "sandbox", base_url: "https://sandbox.api.example", auth_url: "https://auth.api.example" },
  ] as const;
  const elsewhere = (exchange: ExchangeRecord): ExchangeRecord => ({
    ...exchange,
    request: {
      ...exchange.request,
      url: exchange.request.url.replace("http://localhost:3000", "http://other-console:3000"),
    },
  });

  it("sends each run to this console's address for its environment, with that environment's token", () => {
    const collection = runsAsPostmanCollection([elsewhere(record), elsewhere(token)], "runs", [...here]);
    expect(collection.item.map((item) => item.request.url)).toEqual([
      "http://console.here/sandbox/transaction/v1/balance-inquiry",
      "http://console.here/sandbox/reporting/v1/auth/token",
    ]);
    expect(collection.variable).toContainEqual({
      key: "authUrl",
      value: "http://console.here/sandbox",
      type: "string",
    });
    expect(JSON.stringify(collection)).not.toContain("cannot run here");
  });

  it("marks a run of an environment this console lacks, or with another token address, as one that cannot run", () => {
    const production = { ...elsewhere(record), id: "p", environment: "production" as const };
    const sandbox = { ...elsewhere(record), id: "s", environment: "sandbox" as const };
    const collection = runsAsPostmanCollection([elsewhere(record), production, sandbox], "runs", [...here]);
    const [embedded, inProduction, inSandbox] = collection.item;
    expect(embedded?.name).toBe("Balance Inquiry · …0001 · 200");
    expect(inProduction?.name).toBe("Balance Inquiry · …0001 · 200 (cannot run here)");
    // Left where it was recorded, and never sent: one failed check says why.
    expect(inProduction?.request.url).toBe(production.request.url);
    const script = inProduction?.event?.[0]?.script.exec.join("\n") ?? "";
    expect(script).toContain("which this console does not have");
    expect(script).toContain("pm.execution.skipRequest()");
    expect(inSandbox?.name).toContain("(cannot run here)");
    expect(inSandbox?.description).toContain("export the sandbox runs on their own");
  });
});
