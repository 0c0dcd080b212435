/**
 * History beyond 500 runs and when IndexedDB fails, and the tables' fit at 1440, 768 and 390 px, in
 * Chromium against a real console.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadText } from "@/test/support/browser";
import type { ConsoleServer } from "@/test/support/console-server";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { historyCount, overflowsHorizontally } from "./console-support";

const ACTIVE_CARD = "6006491000000001";
const IMPORTED = 2000;

let server: ConsoleServer;
let context: BrowserContext;
let page: Page;
let session: ConsolePage;

/** A history export of `count` Balance Inquiry runs; every tenth on card ...0035, the rest on ...0001. */
function historyDocument(count: number): string {
  const runs = Array.from({ length: count }, (_, index) => {
    const last4 = index % 10 === 0 ? "0035" : "0001";
    const masked = `600649******${last4}`;
    const startedAt = new Date(Date.UTC(2025, 0, 1) + index * 1000).toISOString();
    const exchange = {
      id: `imported-${index}`,
      operation: "balance_inquiry",
      environment: "embedded",
      started_at: startedAt,
      duration_ms: 5,
      request: {
        method: "POST",
        url: "http://localhost:3000/sandbox/transaction/v1/balance-inquiry",
        headers: { "Content-Type": "application/json" },
        body: {
          data: {
            entry_mode: "keyed",
            card_number: masked,
            pin_mode: "none",
            originator: { location_id: "s" },
          },
        },
      },
      response: { status: 200, headers: {}, body: { data: { card_number: masked, balances: {} } } },
      token_events: [],
    };
    return {
      id: exchange.id,
      started_at: startedAt,
      saved_at: startedAt,
      exchange,
      card: { masked, last4 },
      location_id: "s",
      token: null,
    };
  });
  return JSON.stringify({
    format: "card-services-console-history",
    version: 1,
    exported_at: new Date().toISOString(),
    runs,
  });
}

const rows = () => page.locator("[data-testid=history-table] tbody tr");

beforeAll(async () => {
  session = await openConsolePage({
    context: { viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" },
    demo: true,
  });
  ({ server, context, page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe("history beyond 500 runs", () => {
  it(`imports ${IMPORTED} runs and shows ${IMPORTED}; filters search all; export exports the filtered view`, async () => {
    await page.goto(`${server.url}/history`);
    await page.getByText("No runs yet").waitFor();
    await page.locator("input[type=file]").setInputFiles({
      name: "big.json",
      mimeType: "application/json",
      buffer: Buffer.from(historyDocument(IMPORTED)),
    });
    await page.getByText(`Imported ${IMPORTED} runs from big.json.`).waitFor();
    await expect
      .poll(() => page.getByTestId("history-count").innerText())
      .toBe(`${IMPORTED} runs kept · showing 100`);
    await page.getByRole("button", { name: `Show all ${IMPORTED}` }).click();
    await expect.poll(() => rows().count()).toBe(IMPORTED);

    // A pasted full card number keeps its last 4; the filter finds all 200 runs of that card.
    await page.getByLabel("Card last 4").fill("6006491000000035");
    await expect.poll(() => page.getByLabel("Card last 4").inputValue()).toBe("0035");
    await expect
      .poll(() => page.getByTestId("history-count").innerText())
      .toBe(`200 of ${IMPORTED} runs match · showing 100`);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export 200 filtered" }).click(),
    ]);
    await page.getByText(`Exported the 200 filtered runs (of ${IMPORTED})`).waitFor();
    const exported = JSON.parse(await downloadText(download)) as {
      runs: Array<{ card: { last4: string } }>;
    };
    expect(exported.runs).toHaveLength(200);
    expect(exported.runs.every((run) => run.card.last4 === "0035")).toBe(true);
    await page.getByRole("button", { name: "Reset filters" }).first().click();
  });
});

describe("IndexedDB failures are shown, nothing is lost silently", () => {
  it("a failed delete and a failed clear say so and keep the runs", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(() => rows().count()).toBeGreaterThan(0);
    const before = await historyCount(page);
    await page.evaluate(() => {
      const fail = () => {
        throw new DOMException("simulated disk failure", "UnknownError");
      };
      IDBObjectStore.prototype.delete = fail;
      IDBObjectStore.prototype.clear = fail;
    });
    await page
      .getByRole("button", { name: /^Delete / })
      .first()
      .click();
    await page
      .getByRole("alert")
      .filter({ hasText: "The run could not be deleted: simulated disk failure" })
      .waitFor();
    await page.getByRole("button", { name: "Clear…" }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /^Delete \d+ runs?$/ })
      .click();
    await page
      .getByRole("alert")
      .filter({ hasText: "The history could not be cleared: simulated disk failure" })
      .waitFor();
    expect(await historyCount(page)).toBe(before);
  });

  it("a run that cannot be saved keeps its result on screen and says it was not saved", async () => {
    await page.goto(`${server.url}/inquiry`);
    await page.evaluate(() => {
      IDBObjectStore.prototype.put = () => {
        throw new DOMException("simulated quota exceeded", "QuotaExceededError");
      };
    });
    await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await page.getByRole("textbox", { name: "Location ID" }).fill("store-1");
    await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
    await page.getByTestId("gift-balance").waitFor();
    const alert = page.getByRole("alert").filter({ hasText: "A run was not saved to history" });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(
      "Gift Balance Inquiry 600649******0001: simulated quota exceeded",
    );
  });
});

describe("tables fit at 1440, 768 and 390 px", () => {
  it("history table and spec table: no sideways scrolling, every row's actions on screen", async () => {
    const layoutPage = await context.newPage();
    await layoutPage.goto(`${server.url}/compare`);
    await layoutPage.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await layoutPage.getByRole("button", { name: "Run both" }).click();
    await layoutPage.getByText("Found by Request Id").waitFor();
    for (const width of [1440, 768, 390]) {
      await layoutPage.setViewportSize({ width, height: 900 });
      const table = layoutPage.getByRole("region", { name: "Specification comparison table" });
      expect(await overflowsHorizontally(layoutPage), `compare at ${width}`).toBe(false);
      const box = await table.boundingBox();
      expect(box!.x + box!.width, `spec table at ${width}`).toBeLessThanOrEqual(width);
      expect(
        await table.evaluate((element) => element.scrollWidth <= element.clientWidth + 1),
        `spec table scrolls sideways at ${width}`,
      ).toBe(true);
    }

    await layoutPage.goto(`${server.url}/history`);
    await expect
      .poll(() => layoutPage.locator("[data-testid=history-table] tbody tr").count())
      .toBeGreaterThan(0);
    for (const width of [1440, 768, 390]) {
      await layoutPage.setViewportSize({ width, height: 900 });
      expect(await overflowsHorizontally(layoutPage), `history at ${width}`).toBe(false);
      const firstRow = layoutPage.locator("[data-testid=history-table] tbody tr").first();
      for (const name of [/^Open /, /^Replay /, /^Delete /]) {
        const button = firstRow.getByRole("button", { name }).first();
        expect(await button.isVisible(), `${String(name)} at ${width}`).toBe(true);
        const box = await button.boundingBox();
        expect(box!.x + box!.width, `${String(name)} at ${width}`).toBeLessThanOrEqual(width);
      }
    }
    await layoutPage.close();
  });
});
