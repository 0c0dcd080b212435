/** History runs exported for Postman and as HAR: requests as sent, cards as shown, no token or secret. */
import { describe, expect, it } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { runsAsHar, runsAsPostmanCollection } from "@/lib/shared/run-export";

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
    expect(inquiry?.request.header).toContainEqual({ key: "Authorization", value: "Bearer {{accessToken}}" });
    expect(inquiry?.request.body?.raw).toContain("600649******0001");
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
