/**
 * The Test cards choice beside the inquiry's card field (docs/design.md §5): it lists the embedded sandbox's cards
 * masked, and choosing one fills the field with the number fetched then, which a run answers 200 for.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_CARDS } from "@/lib/sandbox/fixtures";
import type { ConsoleServer } from "@/test/support/console-server";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";

const SHOTS = process.env.TEST_CARDS_SHOTS;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ConsolePage;

describe("test cards beside the card field", () => {
  beforeAll(async () => {
    session = await openConsolePage({ context: { viewport: { width: 1440, height: 900 } }, demo: true });
    ({ server, browser, context, page } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("fills the card field with the chosen card, which a run answers 200 for", async () => {
    await page.goto(`${server.url}/inquiry`);
    const choice = page.getByRole("combobox", { name: "Test cards" });
    await choice.waitFor();
    const options = await choice.locator("option").allTextContents();
    expect(options).toContain("600649******0019 · active, every purse 0.00");
    for (const card of TEST_CARDS) expect(options.join("\n")).not.toContain(card.cardNumber);

    await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
    await choice.selectOption({ label: "600649******0001 · active, purses funded" });
    const field = page.getByRole("textbox", { name: "Card number" });
    await expect.poll(() => field.inputValue()).toBe("6006491000000001");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/test-cards-1440.png`, fullPage: false });

    const answered = page.waitForResponse((candidate) => candidate.url().endsWith("/api/inquiries/balance"));
    await page.getByRole("button", { name: "Run Balance Inquiry" }).click();
    const response = await answered;
    const answer = (await response.json()) as { response: { status: number } };
    expect(response.status(), JSON.stringify(answer)).toBe(200);
    expect(answer.response.status).toBe(200);
    await page.getByRole("region", { name: "Balance Inquiry" }).waitFor();
  });

  it("fits a 390 px phone", async () => {
    const phone = await browser.newPage({
      viewport: { width: 390, height: 844 },
      storageState: await context.storageState(),
    });
    try {
      await phone.goto(`${server.url}/inquiry`);
      const choice = phone.getByRole("combobox", { name: "Test cards" });
      await choice.waitFor();
      const box = await choice.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      if (SHOTS) await phone.screenshot({ path: `${SHOTS}/test-cards-390.png`, fullPage: false });
    } finally {
      await phone.close();
    }
  });
});
