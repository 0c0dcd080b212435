/**
 * What an agent on the phone reads at the support desk, in Chromium: while a slow lookup runs, the previous
 * card's balances are gone and the page says which card it is looking up; the batch list shows found, not
 * found and failed. Screenshots at 1440 and 390 px.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, screenshotPath } from "../support/browser";
import { startConsole, type ConsoleServer } from "../support/console-server";
import { pressEnterToSubmit } from "./console-support";

let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  // The slow card answers after 4 s: long enough to look at the page while it waits, within the timeout.
  server = await startConsole({ SANDBOX_SLOW_MS: "4000", RATE_LIMIT_PER_MINUTE: "100000" });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function desk(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  const connected = await page.request.put(`${server.url}/api/session/credentials`, {
    data: { profile: "demo" },
    headers: { Origin: server.url },
  });
  expect(connected.status()).toBe(200);
  await page.goto(`${server.url}/support`);
  return page;
}

async function lookUp(page: Page, card: string) {
  const box = page.getByLabel("Card number", { exact: true });
  await box.fill(card);
  await pressEnterToSubmit(box);
}

test("a slow lookup never shows the previous card's balances under the new number", async () => {
  const page = await desk();
  const result = page.getByRole("region", { name: "Lookup result" });
  await lookUp(page, "6006491000000001");
  await result.getByText("•••• 0001").waitFor({ timeout: 120_000 });
  await page.getByRole("definition").first().waitFor();

  await lookUp(page, "6006491000000043");
  const waiting = page.getByRole("status").filter({ hasText: "Looking up •••• 0043" });
  await waiting.waitFor();
  // While the answer is awaited, no balances are on the page at all.
  expect(await page.locator(`dl[aria-label="Balances"]`).count()).toBe(0);
  expect(await result.count()).toBe(0);
  await page.screenshot({ path: screenshotPath("support-slow-lookup-1440"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath("support-slow-lookup-390"), fullPage: true });
  expect(await waiting.count()).toBe(1);

  // The slow card's own answer, under its own number.
  await result.getByText("•••• 0043").waitFor({ timeout: 30_000 });
  expect(await waiting.count()).toBe(0);
  await page.context().close();
}, 180_000);

test("the batch list shows found, not found and failed", async () => {
  const page = await desk();
  const started = await page.request.post(`${server.url}/api/support/batches`, {
    data: { cards: ["6006491000000001", "7006491000000000", "6006491000000035"] },
    headers: { Origin: server.url },
  });
  expect(started.status()).toBe(202);
  const { id } = (await started.json()) as { id: string };
  await expect
    .poll(
      async () => {
        const progress = await page.request.get(`${server.url}/api/support/batches/${id}`);
        return ((await progress.json()) as { status: string }).status;
      },
      { timeout: 60_000 },
    )
    .toBe("done");
  await page.reload();
  const row = page.getByRole("table", { name: "Your batches" }).getByTestId("batch-outcomes").first();
  await expect.poll(() => row.innerText()).toBe("1 found · 1 not found · 1 failed");
  await page.screenshot({ path: screenshotPath("support-batch-list-1440"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath("support-batch-list-390"), fullPage: true });
  await page.context().close();
}, 180_000);
