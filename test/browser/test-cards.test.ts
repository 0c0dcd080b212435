/**
 * The Test cards choice beside the inquiry's card field (docs/design.md §5): it lists the embedded sandbox's cards
 * masked, and choosing one fills the field with the number fetched then, which a run answers 200 for. The arrow
 * keys reach every card, and a run pressed while a number is on its way waits for it.
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

  it("reaches every card with the arrow keys: the choice stays on the card the field holds", async () => {
    await page.goto(`${server.url}/inquiry`);
    const choice = page.getByRole("combobox", { name: "Test cards" });
    const field = page.getByRole("textbox", { name: "Card number" });
    await choice.waitFor();
    await choice.focus();
    // Each ↓ moves to the next card and fills the field with it, down to the last one.
    for (const card of TEST_CARDS) {
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => field.inputValue()).toBe(card.cardNumber);
    }
    // Typing another number: the choice no longer names a card.
    await field.fill("6006491000000099");
    await expect.poll(() => choice.inputValue()).toBe("");
  });

  it("Ctrl+Enter right after choosing a card runs the card the field then shows, not the previous one", async () => {
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
    const choice = page.getByRole("combobox", { name: "Test cards" });
    const field = page.getByRole("textbox", { name: "Card number" });
    await choice.selectOption({ label: "600649******0001 · active, purses funded" });
    await expect.poll(() => field.inputValue()).toBe("6006491000000001");

    // The next card's number is held on its way, as a slow network would: Run is pressed meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/test-cards/*", async (route) => {
      await held;
      await route.continue();
    });
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/inquiries/balance")) {
        sent.push((JSON.parse(request.postData() ?? "{}") as { card_number: string }).card_number);
      }
    });
    const asked = page.waitForRequest((request) => /\/api\/test-cards\/[^/?]+/.test(request.url()));
    await choice.focus();
    await page.keyboard.press("ArrowDown");
    await asked;
    await page.keyboard.press("Control+Enter");
    // Nothing runs with the number the field still shows; the Run button says it is busy.
    await page.locator('form[data-run-shortcut] button[type="submit"][aria-busy="true"]').waitFor();
    expect(sent).toEqual([]);
    release();
    await expect.poll(() => sent).toEqual(["6006491000000019"]);
    expect(await field.inputValue()).toBe("6006491000000019");
    await page.unroute("**/api/test-cards/*");
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
