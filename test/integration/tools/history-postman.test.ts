/**
 * History's Postman export run by newman against a console: a Gift Balance Inquiry that got no answer and one
 * that did, each sent again with a fresh Request Id and the token the collection requests itself; another
 * console's runs sent to this one, or marked as runs that cannot run here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClientError } from "@/lib/client/fetcher";
import { outcomeUnknownRecord } from "@/lib/client/outcome-unknown";
import type { ExchangeRecord, SessionInfo } from "@/lib/shared/contracts";
import { runsAsPostmanCollection } from "@/lib/shared/run-export";
import { demoClient, type ConsoleClient } from "@/test/support/http-client";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { runNewman } from "@/test/support/newman";

const SLOW_CARD = "6006491000000043";
const ACTIVE_CARD = "6006491000000001";

let server: ConsoleServer;

beforeAll(async () => {
  // The slow card answers after 1.5 s: past the console's timeout, within newman's.
  server = await startConsole({ CARD_API_TIMEOUT_MS: "500", SANDBOX_SLOW_MS: "1500" });
});
afterAll(async () => server?.stop());

async function giftInquiry(client: ConsoleClient, card: string) {
  const body = { environment: "embedded", card_number: card, location_id: "store-001" };
  return client.json<ExchangeRecord & { error?: { code: string; message: string; details?: unknown } }>(
    "POST",
    "/api/inquiries/gift-balance",
    { body },
  );
}

describe("history's Postman export in newman", () => {
  it("runs a no-answer run and an answered one, each with a new Request Id", async () => {
    const client = await demoClient(server.url);
    const slow = await giftInquiry(client, SLOW_CARD);
    expect(slow.status).toBe(504);
    const failure = slow.body.error!;
    const requestId = (failure.details as { request_id: string }).request_id;
    const noAnswer = outcomeUnknownRecord({
      input: { environment: "embedded", card_number: SLOW_CARD, location_id: "store-001" },
      requestId,
      error: new ApiClientError(failure.code, slow.status, failure.message, failure.details),
      environment: "embedded",
      startedAt: new Date(),
      durationMs: 500,
    });
    expect(noAnswer?.request.url).toBe(`${server.url}/sandbox/transaction/v1/gift/balance-inquiry`);
    const answered = await giftInquiry(client, ACTIVE_CARD);
    expect(answered.status).toBe(200);

    const collection = runsAsPostmanCollection([noAnswer!, answered.body], "history");
    const summary = await runNewman(collection, {
      client_id: "demo-client",
      client_secret: "demo-secret",
      card_0043: SLOW_CARD,
      card_0001: ACTIVE_CARD,
    });
    expect(summary.run.failures.map((failure) => failure.error.message)).toEqual([]);
    // newman lists an item's execution again for the script's pm.sendRequest (the token): one per item here.
    const executions = [...new Map(summary.run.executions.map((run) => [run.item.id, run])).values()];
    expect(executions.map((execution) => execution.response?.code)).toEqual([201, 201]);
    const sentIds = executions.map((execution) => execution.request.headers.get("X-Request-Id"));
    expect(new Set([...sentIds, requestId, answered.body.request_id]).size).toBe(4);
    for (const execution of executions) {
      expect(execution.request.headers.get("Authorization")).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    }
  }, 60_000);

  it("runs another console's runs against this one, and says which cannot run here rather than send them", async () => {
    const client = await demoClient(server.url);
    const answered = await giftInquiry(client, ACTIVE_CARD);
    expect(answered.status).toBe(200);
    // As another console's history holds it: that console's address, imported here.
    const imported: ExchangeRecord = {
      ...answered.body,
      request: {
        ...answered.body.request,
        url: "http://127.0.0.1:9/sandbox/transaction/v1/gift/balance-inquiry",
      },
    };
    const production: ExchangeRecord = { ...imported, id: "from-production", environment: "production" };
    const session = await client.json<SessionInfo>("GET", "/api/session");
    const collection = runsAsPostmanCollection([imported, production], "history", session.body.environments);
    expect(collection.item.map((item) => item.name)).toEqual([
      "Gift Balance Inquiry · …0001 · 201 approved",
      "Gift Balance Inquiry · …0001 · 201 approved (cannot run here)",
    ]);
    const summary = await runNewman(collection, {
      client_id: "demo-client",
      client_secret: "demo-secret",
      card_0001: ACTIVE_CARD,
    });
    const executions = [...new Map(summary.run.executions.map((run) => [run.item.id, run])).values()];
    expect(executions[0]?.request.url.toString()).toBe(
      `${server.url}/sandbox/transaction/v1/gift/balance-inquiry`,
    );
    expect(executions[0]?.response?.code).toBe(201);
    // The production run is not sent: its one failed check says why.
    expect(executions[1]?.response).toBeUndefined();
    expect(summary.run.failures.map((failure) => failure.error.message)).toEqual([
      expect.stringContaining("production environment, which this console does not have"),
    ]);
  }, 60_000);

  it("runs a free-form Gift Balance Inquiry as its raw body, with a new Request Id", async () => {
    const client = await demoClient(server.url);
    const body =
      `{"data": {"entry_mode":"keyed", "card_number":"${ACTIVE_CARD}","pin_mode":"none",` +
      `"originator":{"location_id":"store-001"}, "note": "free form"}}`;
    const sent = await client.json<ExchangeRecord>("POST", "/api/requests", {
      body: { operation: "gift_balance_inquiry", environment: "embedded", headers: { "X-Trace": "1" }, body },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ free_form: true, response: { status: 201 } });
    const collection = runsAsPostmanCollection([sent.body], "history");
    expect(collection.item[0]?.request.body?.raw).toContain('"card_number":"{{card_0001}}"');
    const summary = await runNewman(collection, {
      client_id: "demo-client",
      client_secret: "demo-secret",
      card_0001: ACTIVE_CARD,
    });
    expect(summary.run.failures.map((failure) => failure.error.message)).toEqual([]);
    const [execution] = [...new Map(summary.run.executions.map((run) => [run.item.id, run])).values()];
    expect(execution?.response?.code).toBe(201);
    expect(execution?.request.headers.get("X-Trace")).toBe("1");
    expect(execution?.request.headers.get("X-Request-Id")).not.toBe(sent.body.request_id);
    expect(execution?.request.body?.toString()).toBe(body);
  }, 60_000);
});
