/**
 * /monitors in Chromium: a tester creates a monitor with the form, its first run starts at once and its square in
 * the strip turns green; the square opens the run's own page. Both pages fit 390 px in light and dark; screenshots
 * at 1440 and 390 px go to /work/notes/shots/ (MONITOR_SHOTS_DIR).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "@/test/support/browser";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { forceTheme } from "./console-support";

const SHOTS = process.env.MONITOR_SHOTS_DIR ?? "/work/notes/shots";
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  server = await startConsole();
  browser = await launchBrowser();
  context = await browser.newContext();
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** Shoots the page in both themes at each size, and checks it never scrolls sideways. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"] as const) {
      await forceTheme(page, theme);
      await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}-${theme}.png`), fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} at ${size.width} px in ${theme}`).toBeLessThanOrEqual(0);
    }
  }
  await forceTheme(page, "light");
  await page.setViewportSize(SIZES[0] ?? { width: 1440, height: 900 });
}

describe("/monitors", () => {
  it("creates a monitor whose first run turns its square green, which opens the run's page", async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/monitors`);
    const form = page.getByRole("form", { name: "New monitor" });
    await form.getByLabel("Name").fill("Embedded balance");
    await form.getByLabel("Every (minutes)").fill("30");
    await form.getByLabel("Cases").fill("BI-01");
    await form.getByRole("button", { name: "Create monitor" }).click();
    const square = page.locator('[data-testid="run-strip"] a[data-outcome="passed"]');
    await square
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        await page.screenshot({ path: path.join(SHOTS, "monitors-failure.png"), fullPage: true });
        throw error;
      });
    await page.locator('[data-testid="monitor"][data-state="passing"]').waitFor();
    await shoot(page, "monitors");

    await square.first().click();
    await page.getByRole("heading", { name: "Certification run" }).waitFor();
    await page
      .getByTestId("run-progress")
      .filter({ hasText: "1 of 1 cases run" })
      .waitFor({ timeout: 30_000 });
    await shoot(page, "certification-run");
    await page.close();
  }, 180_000);
});
