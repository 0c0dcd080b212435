import { IDBFactory } from "fake-indexeddb";
import { beforeEach, describe, expect, it } from "vitest";
import { createHistoryStore, HistoryImportError, type HistoryStore } from "@/lib/client/history-store";
import { FULL_CARD, MASKED_CARD, giftExchange, tokenExchange } from "./fixtures";

let store: HistoryStore;

beforeEach(() => {
  store = createHistoryStore(new IDBFactory(), "history-test");
});

describe("history store", () => {
  it("adds runs and lists them newest first", async () => {
    await store.addRun({ exchange: tokenExchange() });
    await store.addRun({ exchange: giftExchange({ id: "late", started_at: "2025-01-02T00:00:00.000Z" }) });
    await store.addRun({ exchange: giftExchange({ id: "middle", started_at: "2025-01-01T12:00:00.000Z" }) });

    const runs = await store.listRuns();
    expect(runs.map((run) => run.id)).toEqual(["late", "middle", "run-token-1"]);
    expect((await store.listRuns({ limit: 2 })).map((run) => run.id)).toEqual(["late", "middle"]);
  });

  it("keeps the masked card and location of an inquiry, read from the recorded request", async () => {
    const run = await store.addRun({ exchange: giftExchange() });
    expect(run.card).toEqual({ masked: MASKED_CARD, last4: "0001" });
    expect(run.location_id).toBe("store-1");
    expect(await store.getRun(run.id)).toEqual(run);
  });

  it("never stores a full card number, even when given one", async () => {
    const leaky = giftExchange();
    (leaky.request.body as { data: { card_number: string } }).data.card_number = FULL_CARD;
    leaky.response.body = `<html>card ${FULL_CARD}</html>`;
    leaky.response.body_is_text = true;
    await store.addRun({ exchange: leaky, cardNumber: FULL_CARD });

    const stored = JSON.stringify(await store.listRuns());
    expect(stored).not.toContain(FULL_CARD);
    expect(stored).toContain(MASKED_CARD);
  });

  it("never stores an access token or a client secret", async () => {
    const exchange = tokenExchange();
    exchange.request.body = {
      client_id: "demo-client",
      client_secret: "s3cr3t",
      grant_type: "client_credentials",
    };
    (
      exchange.response.body as { data: { attributes: { access_token: string } } }
    ).data.attributes.access_token = "eyJhbGciOiJIUzI1NiJ9.e30.signature";
    exchange.request.headers.Authorization = "Bearer eyJhbGciOiJIUzI1NiJ9.e30.signature";
    exchange.response.headers["x-debug"] = "issued eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig";
    (exchange.response.body as { meta?: object }).meta = {
      note: "token eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.abc",
    };
    await store.addRun({ exchange });

    const stored = JSON.stringify(await store.listRuns());
    expect(stored).not.toContain("s3cr3t");
    expect(stored).not.toContain("eyJhbGciOiJIUzI1NiJ9");
    expect(stored).toContain("demo-client");
  });

  it("deletes one run and clears all", async () => {
    await store.addRun({ exchange: tokenExchange() });
    await store.addRun({ exchange: giftExchange() });
    await store.deleteRun("run-token-1");
    expect((await store.listRuns()).map((run) => run.id)).toEqual(["run-gift-1"]);
    expect(await store.getRun("run-token-1")).toBeUndefined();
    await store.clearRuns();
    expect(await store.listRuns()).toEqual([]);
  });

  it("notifies subscribers of every change until they unsubscribe", async () => {
    let changes = 0;
    const unsubscribe = store.subscribe(() => changes++);
    await store.addRun({ exchange: giftExchange() });
    await store.deleteRun("run-gift-1");
    unsubscribe();
    await store.clearRuns();
    expect(changes).toBe(2);
  });

  it("exports JSON that imports into another store unchanged", async () => {
    const withTimings = tokenExchange();
    withTimings.timings = { total_ms: 20, token_ms: 0, upstream_ms: 12 };
    withTimings.token_events = [
      { type: "acquired", at: withTimings.started_at, fingerprint: "a1", detail: "first" },
    ];
    await store.addRun({ exchange: withTimings });
    await store.addRun({ exchange: giftExchange() });
    const exported = await store.exportRuns();

    const other = createHistoryStore(new IDBFactory(), "history-other");
    expect(await other.importRuns(exported)).toEqual({ imported: 2 });
    expect(await other.listRuns()).toEqual(await store.listRuns());
  });

  it("exports only the runs it is given (the filtered view), and every run by default", async () => {
    await store.addRun({ exchange: tokenExchange() });
    const gift = await store.addRun({ exchange: giftExchange() });
    const filtered = JSON.parse(await store.exportRuns([gift])) as { runs: Array<{ id: string }> };
    expect(filtered.runs.map((run) => run.id)).toEqual([gift.id]);
    const all = JSON.parse(await store.exportRuns()) as { runs: unknown[] };
    expect(all.runs).toHaveLength(2);
  });

  it("lists every run, beyond 500", async () => {
    const runs = Array.from({ length: 620 }, (_, index) =>
      giftExchange({
        id: `bulk-${index}`,
        started_at: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
      }),
    );
    const document = JSON.parse(await store.exportRuns()) as Record<string, unknown>;
    const imported = await store.importRuns(
      JSON.stringify({
        ...document,
        runs: runs.map((exchange) => ({
          id: exchange.id,
          started_at: exchange.started_at,
          saved_at: exchange.started_at,
          exchange,
          card: null,
          location_id: null,
          token: null,
        })),
      }),
    );
    expect(imported).toEqual({ imported: 620 });
    expect(await store.listRuns()).toHaveLength(620);
  });

  it("masks and redacts again what it imports", async () => {
    await store.addRun({ exchange: giftExchange() });
    const document = JSON.parse(await store.exportRuns()) as {
      runs: Array<{ card: { masked: string }; exchange: { request: { body: unknown; headers: object } } }>;
    };
    const run = document.runs[0]!;
    run.card.masked = FULL_CARD;
    run.exchange.request.body = { data: { card_number: FULL_CARD }, client_secret: "hunter2" };
    run.exchange.request.headers = { Authorization: "Bearer real.jwt.token" };

    await store.clearRuns();
    await store.importRuns(JSON.stringify(document));
    const stored = JSON.stringify(await store.listRuns());
    expect(stored).not.toContain(FULL_CARD);
    expect(stored).not.toContain("hunter2");
    expect(stored).not.toContain("real.jwt.token");
    expect((await store.getRun("run-gift-1"))?.card).toEqual({ masked: MASKED_CARD, last4: "0001" });
  });

  it("rejects what is not an export, with a message, and changes nothing", async () => {
    await store.addRun({ exchange: giftExchange() });
    await expect(store.importRuns("not json")).rejects.toThrow(HistoryImportError);
    await expect(store.importRuns(JSON.stringify({ format: "other", runs: [] }))).rejects.toThrow(
      /not a console history export/,
    );
    const valid = JSON.parse(await store.exportRuns()) as {
      runs: Array<{ exchange: { operation: string } }>;
    };
    valid.runs[0]!.exchange.operation = "refund";
    await expect(store.importRuns(JSON.stringify(valid))).rejects.toThrow(/runs\.0\.exchange\.operation/);
    expect(await store.listRuns()).toHaveLength(1);
  });
});
