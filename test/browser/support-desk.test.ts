/**
 * An agent's session at the support desk in Chromium, keyboard only: the card box has focus on load, Enter looks the
 * card up, the eight purses answer with the card as •••• 0001, the box is emptied, the lookup is listed masked; a
 * batch is pasted, shows its progress to the end, and its masked CSV downloads. Screenshots at 1440 and 390 px.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Browser } from "playwright-core";
import { downloadText, launchBrowser, screenshotPath } from "../support/browser";
import { startConsole, type ConsoleServer } from "../support/console-server";
import { axeViolations, pressEnterToSubmit } from "./console-support";

let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  // Batch cards spend the user's per-minute budget too: the 200-card batch must not wait for the next minute.
  server = await startConsole({ SUPPORT_BATCH_CONCURRENCY: "4", RATE_LIMIT_PER_MINUTE: "100000" });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("an agent looks a card up by keyboard, runs a batch with progress and downloads the masked results", async () => {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 1000 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  // The demo credentials, as the Connect page's button sets them.
  const connected = await page.request.put(`${server.url}/api/session/credentials`, {
    data: { profile: "demo" },
    headers: { Origin: server.url },
  });
  expect(connected.status()).toBe(200);

  await page.goto(`${server.url}/support`);
  const box = page.getByLabel("Card number", { exact: true });
  await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);

  // The reason is typed once and kept; back to the card box by keyboard.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.type("TICKET-9");
  await box.focus();
  await page.keyboard.type("6006 4910 0000 0001");
  await pressEnterToSubmit(box);

  const result = page.getByRole("region", { name: "Lookup result" });
  // The first lookup opens the embedded database, which takes a while on a busy machine.
  await result.getByText("•••• 0001").waitFor({ timeout: 120_000 });
  await expect
    .poll(() => result.getByRole("definition").allInnerTexts())
    .toEqual(["25.00", "5.00", "120.00", "10.00", "0.00", "15.00", "7.00", "1.00"]);
  expect(await box.inputValue()).toBe("");
  expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
  expect(await page.content()).not.toContain("6006491000000001");
  const recent = page.getByRole("list", { name: "Recent lookups" });
  await recent.getByText("•••• 0001").waitFor();
  await page.screenshot({ path: screenshotPath("support-desk-1440") });

  // An unknown card: a clear message, the box emptied again.
  await page.keyboard.type("7006491000000001");
  await page.keyboard.press("Enter");
  await page.getByRole("alert").getByText("Unknown card").waitFor();
  expect(await box.inputValue()).toBe("");
  expect(await axeViolations(page)).toEqual([]);

  // A batch: pasted, started by keyboard, followed to the end on its own page.
  const cards = Array.from({ length: 200 }, (_, index) =>
    index % 2 === 0 ? "6006491000000001" : "6006-4910-0000-0019",
  );
  await page.getByLabel(/Card numbers \(one per line/).fill(`${cards.join("\n")}\nnot a card\n`);
  await page.getByRole("button", { name: "Start batch" }).press("Enter");
  await page.waitForURL(/\/support\/batches\/[0-9a-f-]{36}$/);
  const bar = page.getByRole("progressbar", { name: "Cards looked up" });
  await expect.poll(() => bar.getAttribute("aria-valuenow"), { timeout: 60_000 }).toBe("200");
  await page.getByText("done", { exact: true }).waitFor();
  await page.getByText("Line 201: not a card number", { exact: false }).waitFor();
  await page.getByRole("table").getByText("•••• 0019").first().waitFor();
  expect(await page.content()).not.toMatch(/6006491000000001|6006491000000019/);
  await page.screenshot({ path: screenshotPath("support-batch-1440") });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const csv = await downloadText(download);
  const rows = csv.trim().split("\r\n");
  // 200 cards and the skipped line, with why.
  expect(rows).toHaveLength(202);
  expect(rows[201]).toMatch(/^201,,.*,skipped,not a card number/);
  expect(rows[1]).toMatch(/^1,0001,(?:'-|\w)[\w-]{42},25\.00,/);
  expect(csv).not.toMatch(/\d{12,}/);

  // The phone width: the desk still reads (screenshot looked at by a person).
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`${server.url}/support`);
  await page.getByLabel("Card number", { exact: true }).waitFor();
  await page.keyboard.type("6006491000000019");
  await pressEnterToSubmit(page.getByLabel("Card number", { exact: true }));
  await page.getByRole("region", { name: "Lookup result" }).getByText("•••• 0019").waitFor();
  await page.screenshot({ path: screenshotPath("support-desk-390"), fullPage: true });
  await context.close();
}, 240_000);

test("a failed card runs again as a new batch, and the results filter tells not found from failed", async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  await page.request.put(`${server.url}/api/session/credentials`, {
    data: { profile: "demo" },
    headers: { Origin: server.url },
  });
  await page.goto(`${server.url}/support`);
  const box = page.getByLabel("Card number", { exact: true });
  await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
  // Found, a fault (500) and a card that does not exist.
  await page
    .getByLabel(/Card numbers \(one per line/)
    .fill("6006491000000001\n6006491000000035\n7006491000000001\n");
  await page.getByRole("button", { name: "Start batch" }).click();
  await page.waitForURL(/\/support\/batches\/[0-9a-f-]{36}$/);
  const first = page.url();
  const again = page.getByRole("button", { name: "Run the 1 failed card again" });
  await again.waitFor({ timeout: 60_000 });
  await page.getByLabel("Show", { exact: true }).selectOption("not_found");
  await page.getByRole("cell", { name: "•••• 0001" }).waitFor();
  expect(await page.getByRole("cell", { name: "Unknown card" }).count()).toBe(1);
  expect(await page.getByRole("cell", { name: "•••• 0035" }).count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);
  await again.click();
  await page.waitForURL((address) => address.href !== first && /\/support\/batches\//.test(address.pathname));
  const bar = page.getByRole("progressbar", { name: "Cards looked up" });
  await expect.poll(() => bar.getAttribute("aria-valuemax"), { timeout: 60_000 }).toBe("1");
  await page.getByRole("cell", { name: "•••• 0035" }).waitFor();
  expect(await page.content()).not.toContain("6006491000000035");
  await context.close();
}, 120_000);
