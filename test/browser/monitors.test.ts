/**
 * /monitors in Chromium: a tester creates a monitor with the form, its first run starts at once and its square in
 * the strip turns green; the square opens the run's own page. A monitor on an upstream the test breaks and mends
 * shows where alerts go, its deliveries and their redelivery, a test alert, and "changed between" only while it
 * fails. Both pages fit 390 px in light and dark; screenshots at 1440 and 390 px go to test-results/screenshots.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { startAlertingConsole, verifyAlert, type AlertingConsole } from "@/test/support/alerting-console";
import type { MonitorListResponse } from "@/lib/shared/monitors-api";
import { sharedConsole, type ConsoleServer } from "@/test/support/console-server";
import { forceTheme } from "./console-support";

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  server = await sharedConsole();
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
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"] as const) {
      await forceTheme(page, theme);
      await page.screenshot({ path: screenshotPath(`${name}-${size.width}-${theme}`), fullPage: true });
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
        await page.screenshot({ path: screenshotPath("monitors-failure"), fullPage: true });
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

    // The console is the run's shared one: the monitor leaves with the test instead of running beside other files.
    const list = (await (await page.request.get(`${server.url}/api/monitors`)).json()) as MonitorListResponse;
    const mine = list.monitors.filter(({ name }) => name === "Embedded balance");
    expect(mine).toHaveLength(1);
    const removed = await page.request.delete(`${server.url}/api/monitors/${mine[0]!.id}`, {
      headers: { Origin: server.url },
    });
    expect(removed.status()).toBe(200);
    await page.close();
  }, 180_000);
});

describe("/monitors: where alerts go, deliveries, and what broke only while failing", () => {
  const secret = `whsec_${Buffer.alloc(32, 11).toString("base64")}`;
  let alerting: AlertingConsole;
  let alertContext: BrowserContext;
  /** Each alert received: its webhook-id and type, verified as the reference verifier does. */
  const received = () =>
    alerting.alerts.map((alert) => ({
      id: alert.headers["webhook-id"] ?? "",
      type: verifyAlert(secret, alert).type,
    }));

  beforeAll(async () => {
    alerting = await startAlertingConsole({
      clientSecret: "monitor-page-secret-4711",
      webhookSecret: secret,
      webhookPath: "/hooks/T0KEN/secret-path",
    });
    alertContext = await browser.newContext();
  }, 120_000);

  afterAll(async () => {
    await alertContext?.close();
    await alerting?.stop();
  });

  it("says where alerts go, shows each delivery, redelivers, sends a test alert, and drops the break once recovered", async () => {
    const page = await alertContext.newPage();
    await page.goto(`${alerting.server.url}/monitors`);
    const created = await page.request.post(`${alerting.server.url}/api/monitors`, {
      headers: { Origin: alerting.server.url },
      data: {
        name: "Sandbox <!channel> balance 6006491000000001",
        environment: "sandbox",
        cases: ["BI-01"],
        every_minutes: 60,
      },
    });
    expect(created.status()).toBe(201);
    const card = page.locator('[data-testid="monitor"]');
    await page.locator('[data-testid="monitor"][data-state="passing"]').waitFor({ timeout: 60_000 });
    // Only the host: the webhook's path holds its token.
    const target = page.getByTestId("alert-target");
    await expect
      .poll(() => target.textContent())
      .toContain(`Alerts go to 127.0.0.1:${alerting.receiverPort}`);
    expect(await target.textContent()).not.toContain("T0KEN");
    // The name was masked when the monitor was made.
    await page.getByRole("heading", { name: "Sandbox <!channel> balance 600649******0001" }).waitFor();
    await page.getByText("No alert sent yet.").waitFor();

    alerting.setBroken(true);
    await card.getByRole("button", { name: "Run now" }).click();
    await page.locator('[data-testid="monitor"][data-state="failing"]').waitFor({ timeout: 60_000 });
    await page.getByTestId("cases-changed").filter({ hasText: "BI-01" }).waitFor();
    const failing = page
      .locator('[data-testid="delivery"][data-state="delivered"]')
      .filter({ hasText: "Failing" });
    await failing.waitFor({ timeout: 60_000 });
    expect(await failing.textContent()).toMatch(/1 attempt, last .*HTTP 200/);
    await shoot(page, "monitors-failing");

    alerting.setBroken(false);
    await card.getByRole("button", { name: "Run now" }).click();
    await page.locator('[data-testid="monitor"][data-state="passing"]').waitFor({ timeout: 60_000 });
    await page
      .locator('[data-testid="delivery"][data-state="delivered"]')
      .filter({ hasText: "Recovered" })
      .waitFor({ timeout: 60_000 });
    // Recovered: the old break is history, shown in the strip, no longer as what changed.
    expect(await page.getByTestId("cases-changed").count()).toBe(0);
    expect(received().map((alert) => alert.type)).toEqual(["monitor.failing", "monitor.recovered"]);

    await card.getByRole("button", { name: "Send a test alert" }).click();
    await page
      .locator('[data-testid="delivery"][data-state="delivered"]')
      .filter({ hasText: "Test" })
      .waitFor({ timeout: 60_000 });
    expect(received().at(-1)?.type).toBe("monitor.test");

    // Redelivering the failing alert sends the same webhook-id again.
    const failingId = received()[0]?.id;
    await failing.getByRole("button", { name: "Redeliver" }).click();
    await expect.poll(() => alerting.alerts.length, { timeout: 60_000 }).toBe(4);
    expect(received()[3]).toEqual({ id: failingId, type: "monitor.failing" });
    await page
      .locator('[data-testid="delivery"]')
      .filter({ hasText: "2 attempts" })
      .waitFor({ timeout: 60_000 });
    await shoot(page, "monitors-recovered");
    await page.close();
  }, 240_000);
});
