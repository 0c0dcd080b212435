/**
 * "Your application" on the certification page in Chromium (docs/design.md §11): start a certification, copy the
 * .env snippet, start steps, and watch an application (fetch from the test process) appear in the live log
 * while the checks turn green, and refused token requests only counted; finish and download. At 1440 and 390 px,
 * axe-clean.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVE_CARD, INACTIVE_CARD } from "@/lib/shared/client-certification-contract";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { CardApiClient, type ClientEnv } from "@/test/support/card-api-clients";
import { sharedConsole, type ConsoleServer } from "@/test/support/console-server";
import { axeViolations, overflowsHorizontally, transitionsFinished } from "./console-support";

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

function parseEnv(text: string): ClientEnv {
  const entries = text
    .trim()
    .split("\n")
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]);
  return Object.fromEntries(entries) as ClientEnv;
}

async function startStep(title: string) {
  await page.getByRole("button", { name: `Start step ${title}` }).click();
  await expect.poll(() => page.locator(`[data-step] :text-is("armed")`).count()).toBe(1);
}

const verdict = (id: string) => page.locator(`[data-check="${id}"]`).getAttribute("data-verdict");

describe("Your application: integration certification in the browser", () => {
  beforeAll(async () => {
    server = await sharedConsole();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    page = await context.newPage();
    await page.goto(`${server.url}/certification`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("starts, hands out the .env, shows the application's calls and checks live, finishes and downloads", async () => {
    await page.getByRole("button", { name: "Start certification" }).click();
    const snippet = page.getByLabel(".env for your application");
    await expect.poll(() => snippet.innerText()).toMatch(/CARD_API_CLIENT_SECRET=\S{43}/);
    await page.getByRole("button", { name: "Copy .env" }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const env = parseEnv(copied);
    expect(env.CARD_API_BASE_URL).toBe(`${server.url}/sandbox`);
    const application = new CardApiClient(env);

    await startStep("Tokens");
    for (let call = 0; call < 3; call += 1) await application.balance(ACTIVE_CARD);
    await expect.poll(() => page.locator("[data-call]").count()).toBe(4);
    await expect.poll(() => verdict("CLI-TOKEN-REUSE")).toBe("pass");
    // Anyone who knows the client_id: counted on the page, never in the log.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await fetch(`${env.CARD_API_AUTH_URL}/reporting/v1/auth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_id: env.CARD_API_CLIENT_ID,
          client_secret: "not-the-secret",
          grant_type: "client_credentials",
        }),
      });
      expect(refused.status).toBe(400);
    }
    await expect
      .poll(() => page.locator('[data-counter="refused"]').innerText())
      .toMatch(/^3 token requests with this client_id refused/);
    expect(await page.locator("[data-call]").count()).toBe(4);
    await expect.poll(() => verdict("CLI-RENEW-401")).toBe("not_observed");

    await startStep("Declined inquiry");
    await application.gift(INACTIVE_CARD);
    await expect.poll(() => verdict("CLI-DECLINE-NO-RETRY")).toBe("pass");
    await startStep("Revoked token");
    await application.gift(ACTIVE_CARD);
    await expect.poll(() => verdict("CLI-RENEW-401")).toBe("pass");
    await expect.poll(() => page.locator('[data-call] [data-status="401"]').count()).toBe(1);

    await page.locator("[data-call] summary").first().click();
    await expect
      .poll(() => page.locator("[data-call] details[open] pre").innerText())
      .toContain("[REDACTED]");
    await page.screenshot({ path: screenshotPath("client-certification-1440"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 900 });
    await transitionsFinished(page);
    await page.screenshot({ path: screenshotPath("client-certification-390"), fullPage: true });
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("main *")]
        .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .filter((element) => !element.closest("pre, nav"))
        .slice(0, 5)
        .map((element) => `${element.tagName}.${element.className}`),
    );
    expect(wide).toEqual([]);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1440, height: 1000 });

    await page.getByRole("button", { name: "Finish" }).click();
    const download = page.getByRole("link", { name: "Download evidence" });
    await expect.poll(() => download.count()).toBe(1);
    await expect.poll(() => verdict("CLI-TIMEOUT-LOOKUP")).toBe("not_observed");
    const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^client-certification-cert-.*\.zip$/);
  });
});
