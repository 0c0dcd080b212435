/**
 * A tester's walk on the certification page in Chromium: without credentials the form says so before the
 * click and offers the demo client on the embedded sandbox; a case that waits says what for and how long;
 * report.html reads on a phone (390 px, no sideways scroll) and prints to PDF. Screenshots at 1440 and 390 px.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { buildReportHtml } from "@/lib/server/certification/evidence/report-html";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { sharedConsole, type ConsoleServer } from "@/test/support/console-server";
import { certify } from "@/test/unit/server/certification/harness";

let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  server = await sharedConsole();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.screenshot({ path: screenshotPath(`${name}-1440`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath(`${name}-390`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 1000 });
}

it("says a run has no credentials before the click, connects the demo client, and shows what AUTH-03 waits for", async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/certification`);
  const form = page.getByRole("region", { name: "New run" });
  const notice = form.getByRole("status").filter({ hasText: "No credentials for Embedded sandbox" });
  await notice.waitFor({ timeout: 120_000 });
  const start = form.getByRole("button", { name: "Start run on Embedded sandbox" });
  expect(await start.isDisabled()).toBe(true);
  await shots(page, "certification-no-credentials");

  await notice.getByRole("button", { name: "Use demo credentials" }).click();
  await expect.poll(() => notice.count()).toBe(0);
  await expect.poll(() => start.isEnabled()).toBe(true);

  // Only AUTH-03, waiting for its token to expire.
  for (const group of ["Tokens", "Authorization", "Gift Balance Inquiry", "Balance Inquiry", "Versioning"]) {
    await form.getByRole("button", { name: `Select none in ${group}`, exact: true }).click();
    await form.getByRole("button", { name: `Select all in ${group}`, exact: true }).waitFor();
  }
  await form.getByRole("checkbox", { name: /^AUTH-03 / }).check();
  await form.getByRole("checkbox", { name: /^Wait for a token to expire/ }).check();
  await start.click();
  const wait = page.getByTestId("run-wait");
  await expect
    .poll(() => wait.innerText().catch(() => ""), { timeout: 60_000 })
    .toMatch(/^· AUTH-03: waiting for the token to expire — about \d+ s left$/);
  const left = Number(/about (\d+) s/.exec(await wait.innerText())![1]);
  expect(left).toBeGreaterThan(0);
  // The wait is the token's 60 s + 1.5 s, rounded up; the page's clock ticks once a second, so the first
  // figure it shows may come from a tick up to a second before the wait began.
  expect(left).toBeLessThanOrEqual(63);
  await shots(page, "certification-waiting");

  await page.getByRole("button", { name: "Cancel run" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel the run" }).click();
  await page.getByText("Stopped on request", { exact: false }).waitFor({ timeout: 30_000 });
  expect(await wait.count()).toBe(0);
  await context.close();
}, 240_000);

it("report.html reads on a phone without sideways scrolling, and prints", async () => {
  const { run } = await certify();
  const html = buildReportHtml(run, { console: consoleInfo(), specification: specificationInfo(), kid: "k" });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.setContent(html);
  const widths = () =>
    page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
  const phone = await widths();
  expect(phone.page).toBeLessThanOrEqual(phone.view);
  // Each cell names its column once the header row is out of sight.
  const label = await page
    .locator("table.stack td[data-label='Verdict']")
    .first()
    .evaluate((cell) => getComputedStyle(cell, "::before").content);
  expect(label).toBe('"Verdict"');
  await page.screenshot({ path: screenshotPath("report-html-390"), fullPage: true });
  await page.screenshot({ path: screenshotPath("report-html-390-top") });
  await page.locator("section.case table").first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath("report-html-390-checks") });
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.screenshot({ path: screenshotPath("report-html-1440") });
  expect(
    await page
      .locator("table.stack thead")
      .first()
      .evaluate((head) => getComputedStyle(head).position),
  ).toBe("static");
  await page.emulateMedia({ media: "print" });
  const pdf = await page.pdf({ format: "A4", path: screenshotPath("report-html").replace(/\.png$/, ".pdf") });
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  await context.close();
}, 120_000);
