/**
 * The support desk routes on a started console (production build) with the embedded sandbox: a lookup is a
 * Balance Inquiry only (the sandbox records no transaction, whatever the body tries), answered masked with a clear
 * outcome; a 1,000-card CSV batch with the 429 card inside finishes with the right counts and a masked CSV; a batch
 * is cancelled mid-way; bad input is a 4xx.
 */
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SupportBatchProgress, SupportLookupResult } from "@/lib/shared/support-contract";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { demoClient, type ConsoleClient } from "@/test/support/http-client";

let server: ConsoleServer;
let client: ConsoleClient;

const ACTIVE = "6006491000000001";
const RATE_LIMITED = "6006491000000068";
const SLOW = "6006491000000043";

beforeAll(async () => {
  server = await startConsole({
    SANDBOX_TEST_HOOKS: "on",
    SUPPORT_BATCH_CONCURRENCY: "4",
    CARD_API_TIMEOUT_MS: "3000",
    // Batch cards spend the user's per-minute budget too: the 1,000-card batch must not wait for minutes.
    RATE_LIMIT_PER_MINUTE: "100000",
  });
  client = await demoClient(server.url);
});

afterAll(async () => {
  await server?.stop();
});

async function sandboxTransactions(): Promise<number> {
  const { status, body } = await client.json<{ transactions: number }>("GET", "/sandbox/__sandbox/stats");
  expect(status).toBe(200);
  return body.transactions;
}

/** Polls the batch (as the page does) until `done` says so; bounded by the test's timeout. */
async function waitForBatch(
  id: string,
  done: (batch: SupportBatchProgress) => boolean,
): Promise<SupportBatchProgress> {
  for (;;) {
    const { status, body } = await client.json<SupportBatchProgress>("GET", `/api/support/batches/${id}`);
    expect(status).toBe(200);
    if (done(body)) return body;
    await delay(200);
  }
}

describe("support lookups", () => {
  test("a lookup is a Balance Inquiry: no transaction recorded, whatever the body asks", async () => {
    const before = await sandboxTransactions();
    const sneaky = await client.json<{
      error: { code: string; details: { fields: Record<string, string[]> } };
    }>("POST", "/api/support/lookups", {
      body: { card_number: ACTIVE, operation: "gift_balance_inquiry", request_id: "r-1" },
    });
    expect(sneaky.status).toBe(400);
    expect(Object.keys(sneaky.body.error.details.fields).sort()).toEqual(["operation", "request_id"]);

    const { status, body, response } = await client.json<SupportLookupResult>(
      "POST",
      "/api/support/lookups",
      {
        body: { card_number: "6006 4910 0000 0001", reason: "TICKET-7" },
      },
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      outcome: "found",
      environment: "embedded",
      card: { last4: "0001", masked: "600649******0001" },
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
      upstream_status: 200,
    });
    const text = JSON.stringify(body);
    expect(text).not.toContain(ACTIVE);
    expect(text).not.toMatch(/eyJ|Bearer|exchange|request/i);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await sandboxTransactions()).toBe(before);
    // The lookup is in the audit log (one JSON line per row in the server log), with the reason.
    await expect.poll(() => server.logs()).toMatch(/"event":"support_lookup"[^\n]*"reason":"TICKET-7"/);
  });

  test("each outcome is named: unknown, inactive (still answers), 429 with the wait, upstream error", async () => {
    const outcome = async (card_number: string) =>
      (await client.json<SupportLookupResult>("POST", "/api/support/lookups", { body: { card_number } }))
        .body;
    expect(await outcome("7006491000000001")).toMatchObject({ outcome: "not_found", balances: null });
    expect(await outcome("6006491000000027")).toMatchObject({
      outcome: "found",
      message: expect.stringMatching(/does not say whether the card is active/),
    });
    expect(await outcome(RATE_LIMITED)).toMatchObject({
      outcome: "rate_limited",
      retry_after_seconds: 2,
      message: expect.stringMatching(/2 seconds/),
    });
    expect(await outcome("6006491000000035")).toMatchObject({
      outcome: "upstream_error",
      upstream_status: 500,
    });
  });

  test("bad input is a 4xx in the one error shape", async () => {
    const short = await client.json<{ error: { code: string } }>("POST", "/api/support/lookups", {
      body: { card_number: "1234" },
    });
    expect(short.status).toBe(400);
    expect(short.body.error.code).toBe("validation_failed");
    const crossSite = await client.send("POST", "/api/support/batches", {
      rawBody: `${ACTIVE}\n`,
      headers: { "content-type": "text/csv" },
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    const empty = await client.json<{ error: { code: string } }>("POST", "/api/support/batches", {
      rawBody: "card_number\nnope\n",
      headers: { "content-type": "text/csv" },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe("validation_failed");
    const plain = await client.json<{ error: { code: string } }>("POST", "/api/support/batches", {
      rawBody: `${ACTIVE}\n`,
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);
    expect(plain.body.error.code).toBe("unsupported_media_type");
    const unknown = await client.send("GET", "/api/support/batches/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
  });
});

describe("support batches", () => {
  test("a 1,000-card CSV batch with the 429 card inside finishes with the right counts and a masked CSV", async () => {
    const cards = Array.from({ length: 1000 }, (_, index) => {
      if (index === 500) return RATE_LIMITED;
      if (index % 4 === 3) return `7006-4910-${String(index).padStart(8, "0")}`; // unknown
      return ["6006491000000001", "6006 4910 0000 0019", "6006491000000027"][index % 4]!;
    });
    // A header, a BOM, CRLF, a quoted field and two bad lines (3 and 1004).
    const csv = `\uFEFFcard_number,note\r\n${cards
      .map((card, index) => (index === 1 ? `"${card}","quoted, note"` : `${card},`))
      .join("\r\n")}\r\nnot-a-card,\r\n`;
    const lines = csv.split("\r\n");
    lines.splice(2, 0, "hello,");
    const started = await client.json<SupportBatchProgress>(
      "POST",
      "/api/support/batches?reason=TICKET-1000",
      {
        rawBody: lines.join("\r\n"),
        headers: { "content-type": "text/csv" },
      },
    );
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ total: 1000, bad_line_count: 2, reason: "TICKET-1000" });
    expect(started.body.bad_lines.map((bad) => bad.line)).toEqual([3, 1003]);

    const finished = await waitForBatch(started.body.id, (batch) => batch.status === "done");
    expect(finished).toMatchObject({ total: 1000, done: 1000, failed: 251, cancelled: 0, eta_seconds: 0 });
    expect(finished.rate).toBeGreaterThan(0);

    const csvResponse = await client.send("GET", `/api/support/batches/${started.body.id}/results.csv`);
    expect(csvResponse.status).toBe(200);
    expect(csvResponse.headers.get("content-type")).toMatch(/^text\/csv/);
    const rows = (await csvResponse.text()).trim().split("\r\n");
    // Every input line in order: the 1,000 cards and the two skipped lines (3 and 1003), with why.
    expect(rows).toHaveLength(1003);
    // A hash cell that starts with "-" is written '-… (the CSV rule's spreadsheet guard): one key in 64 does that.
    expect(rows[1]).toMatch(
      /^2,0001,(?:'-|\w)[\w-]{42},25\.00,5\.00,120\.00,10\.00,0\.00,15\.00,7\.00,1\.00,found,,$/,
    );
    expect(rows[2]).toMatch(/^3,,,,,,,,,,,skipped,not a card number/);
    expect(rows[3]).toMatch(/^4,0019,(?:'-|\w)[\w-]{42},0\.00,/);
    expect(rows[502]).toMatch(/^503,0068,(?:'-|\w)[\w-]{42},,,,,,,,,rate_limited,/);
    expect(rows[5]).toMatch(/^6,0003,(?:'-|\w)[\w-]{42},,,,,,,,,not_found,/);
    expect(rows[1002]).toMatch(/^1003,,.*,skipped,/);
    const all = rows.join("\n");
    expect(all).not.toMatch(/\d{12,}/);
    // One audit row per card, each with the reason.
    const auditLines = () =>
      server
        .logs()
        .split("\n")
        .filter((line) => line.includes('"event":"support_batch_card"') && line.includes(started.body.id));
    // The server log is written asynchronously: wait for the lines to arrive.
    await expect.poll(() => auditLines().length).toBe(1000);
    expect(auditLines().every((line) => line.includes('"reason":"TICKET-1000"'))).toBe(true);
    expect(server.logs()).not.toContain(ACTIVE);
  });

  test("showing results is not a download: polled pages write no download row, one CSV writes one", async () => {
    const started = await client.json<SupportBatchProgress>("POST", "/api/support/batches", {
      body: { cards: [ACTIVE, "6006491000000019", "7006491000000003"] },
    });
    expect(started.status).toBe(202);
    const { id } = started.body;
    const downloadRows = async () => {
      const { status, body } = await client.json<{ rows: { details: { batch_id?: string } | null }[] }>(
        "GET",
        "/api/audit?event=support_batch_results_downloaded&limit=500",
      );
      expect(status).toBe(200);
      return body.rows.filter((row) => row.details?.batch_id === id);
    };
    // As the page does while the batch runs and each time it is opened.
    for (let poll = 0; poll < 10; poll += 1) {
      const page = await client.send("GET", `/api/support/batches/${id}/results?from=0&limit=100`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-disposition")).toBeNull();
      await page.text();
    }
    await waitForBatch(id, (batch) => batch.status === "done");
    expect(await downloadRows()).toHaveLength(0);

    const csv = await client.send("GET", `/api/support/batches/${id}/results.csv`);
    expect(csv.status).toBe(200);
    await csv.text();
    expect((await downloadRows()).map((row) => row.details)).toEqual([{ batch_id: id, format: "csv" }]);

    const saved = await client.send("GET", `/api/support/batches/${id}/results?download=1`);
    expect(saved.status).toBe(200);
    expect(saved.headers.get("content-disposition")).toMatch(/^attachment;/);
    await saved.text();
    expect(await downloadRows()).toHaveLength(2);

    const bad = await client.json<{ error: { code: string } }>(
      "GET",
      `/api/support/batches/${id}/results?download=yes`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");
  });

  test("cancel mid-way: the cards not started never run; the results say so", async () => {
    const cards = [
      ACTIVE,
      ...Array.from({ length: 12 }, () => SLOW),
      ...Array.from({ length: 987 }, () => ACTIVE),
    ];
    const started = await client.json<SupportBatchProgress>("POST", "/api/support/batches", {
      body: { cards },
    });
    expect(started.status).toBe(202);
    const cancelled = await client.json<SupportBatchProgress>(
      "DELETE",
      `/api/support/batches/${started.body.id}`,
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    const settled = await waitForBatch(
      started.body.id,
      (batch) => batch.done + batch.cancelled === batch.total,
    );
    expect(settled.status).toBe("cancelled");
    expect(settled.cancelled).toBeGreaterThan(900);
    const rows = (
      await (await client.send("GET", `/api/support/batches/${started.body.id}/results.csv`)).text()
    )
      .trim()
      .split("\r\n");
    expect(rows.filter((row) => row.endsWith(",cancelled,"))).toHaveLength(settled.cancelled);
    // A second cancel changes nothing.
    const again = await client.json<SupportBatchProgress>(
      "DELETE",
      `/api/support/batches/${started.body.id}`,
    );
    expect(again.body.cancelled).toBe(settled.cancelled);
  });
});
