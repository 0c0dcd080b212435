/**
 * `npm run screenshots`: regenerates the screenshots of the README and docs/ (docs/screenshots/) from the production build,
 * against the embedded sandbox, only when asked (never inside a test run). Pages at 1280 px, light (and the
 * inquiry page dark), plus the history and compare tables at 1440, 768 and 390 px.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { launchBrowser } from "@/test/support/browser";
import { startConsole } from "@/test/support/console-server";

const OUT = path.resolve(__dirname, "../docs/screenshots");
const ACTIVE_CARD = "6006491000000001";
const INACTIVE_CARD = "6006491000000027";

/** Waits until every CSS transition has ended, so that colours are final. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  });
}

async function shot(page: Page, name: string, height = 1000): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  const { width } = page.viewportSize()!;
  await page.screenshot({ path: path.join(OUT, `${name}.png`), clip: { x: 0, y: 0, width, height } });
  console.log(`docs/screenshots/${name}.png`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const server = await startConsole();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 1000 },
      colorScheme: "light",
      reducedMotion: "reduce",
    });
    const page = await context.newPage();
    await shootConnectTokenHome(page, server.url);
    await shootInquiry(page, server.url);
    await shootCompare(page, server.url);
    await shootHistory(page, server.url);
    await shootAudit(page, server.url);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function shootConnectTokenHome(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/connect`);
  await page.getByRole("button", { name: "Use demo credentials" }).click();
  await page.getByText("Demo credentials saved.").waitFor();
  await shot(page, "connect", 920);

  await page.goto(`${url}/token`);
  await page
    .getByRole("button", { name: /Request (a )?(new )?token/ })
    .first()
    .click();
  await page
    .getByText(/fingerprint/i)
    .first()
    .waitFor();
  await shot(page, "token", 1100);

  await page.goto(`${url}/`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  await shot(page, "home");
}

/** An approved inquiry, light and dark; then a declined one, so that history holds both. */
async function shootInquiry(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/inquiry`);
  await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
  await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
  await page.getByRole("textbox", { name: "Location ID" }).fill("store-001");
  await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
  await page.getByTestId("gift-balance").waitFor();
  await shot(page, "inquiry");
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "inquiry-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByRole("textbox", { name: "Card number" }).fill(INACTIVE_CARD);
  await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
  await page.getByText("✕ Declined").waitFor();
}

async function shootCompare(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/compare`);
  await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
  await page.getByRole("button", { name: "Run both" }).click();
  await page.getByText("Found by Request Id").waitFor();
  await shot(page, "compare", 1300);
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 1000 });
    const table = page.getByRole("region", { name: "Specification comparison table" });
    await table.scrollIntoViewIfNeeded();
    await settled(page);
    await table.screenshot({ path: path.join(OUT, `compare-table-${width}.png`) });
    console.log(`docs/screenshots/compare-table-${width}.png`);
  }
}

async function shootHistory(page: Page, url: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(`${url}/history`);
  await page.locator("[data-testid=history-table] tbody tr").first().waitFor();
  await shot(page, "history");
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 1400 });
    await shot(page, `history-${width}`, 1400);
  }
}

/** The audit log (AUTH_MODE=none: the local user is an admin), with the chain checked. */
async function shootAudit(page: Page, url: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(`${url}/audit`);
  await page.locator("[data-testid=audit-table] tbody tr").first().waitFor();
  await page.getByRole("button", { name: "Verify chain" }).click();
  await page.getByText("Chain intact").waitFor();
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 1400 });
    await shot(page, `audit-${width}`, 1400);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
