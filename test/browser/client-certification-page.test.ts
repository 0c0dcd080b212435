/**
 * A client certification's own page (docs/design.md §11) on a team console (AUTH_MODE=proxy; each browser context
 * sends the proxy's headers): starting one on "Your application" opens its page; a reload, another tab and a
 * shared link return to it; another tester finds none (with a way back), an admin may look; a failed check
 * links to the calls that broke it; after finishing, a reload still shows the verdicts and the evidence.
 * Screenshots of the returning page at 1440 and 390 px.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVE_CARD } from "@/lib/shared/client-certification-contract";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { CardApiClient, type ClientEnv } from "@/test/support/card-api-clients";
import type { ConsoleServer } from "@/test/support/console-server";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";
import { axeViolations, overflowsHorizontally, transitionsFinished } from "./console-support";

const SECRET = "proxy-shared-secret-for-the-certification-page";
const identity = proxyIdentity(SECRET);

let server: ConsoleServer;
let browser: Browser;
let url: string;
const contexts: BrowserContext[] = [];

async function as(headers: Record<string, string>, path: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 1000 },
    extraHTTPHeaders: headers,
    acceptDownloads: true,
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${url}${path}`);
  return page;
}

function parseEnv(text: string): ClientEnv {
  const entries = text
    .trim()
    .split("\n")
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]);
  return Object.fromEntries(entries) as ClientEnv;
}

const verdict = (page: Page, id: string) => page.locator(`[data-check="${id}"]`).getAttribute("data-verdict");

/** What a returning page must show: the step done, every call, the failed check. */
async function expectReturned(page: Page, calls: number) {
  await page.getByRole("heading", { name: "Client certification" }).waitFor();
  await expect.poll(() => page.locator("[data-call]").count()).toBe(calls);
  await expect.poll(() => page.locator('[data-step="tokens"]').innerText()).toMatch(/\bdone\b/);
  await expect.poll(() => verdict(page, "CLI-TOKEN-REUSE")).toBe("fail");
}

beforeAll(async () => {
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "tester:certification,admin:console-admins",
  });
  url = server.url;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

describe("a client certification's page", () => {
  it("comes back on reload, in another tab and by link; refused to another tester; an admin may look", async () => {
    const page = await as(identity("tina", "certification"), "/certification");
    await page.getByRole("button", { name: "Start certification" }).click();
    await page.waitForURL(/\/certification\/clients\/[0-9a-f-]{36}$/);
    const link = page.url();
    const snippet = page.getByLabel(".env for your application");
    await expect.poll(() => snippet.innerText()).toMatch(/CARD_API_CLIENT_SECRET=\S{43}/);
    const env = parseEnv(await snippet.innerText());

    await page.getByRole("button", { name: "Start step Tokens" }).click();
    await expect.poll(() => page.locator('[data-step="tokens"]').innerText()).toMatch(/armed/);
    // An application that asks for a token before every call: CLI-TOKEN-REUSE fails.
    const careless = new CardApiClient(env, "token_per_call");
    for (let call = 0; call < 3; call += 1) expect(await careless.balance(ACTIVE_CARD)).toBe(200);
    await expectReturned(page, 6);

    const broken = page.locator('[data-check="CLI-TOKEN-REUSE"]').getByRole("link");
    expect(await broken.count()).toBeGreaterThan(0);
    await broken.first().click();
    const shown = page.locator("[data-call][data-highlighted]");
    await expect.poll(() => shown.count()).toBeGreaterThan(0);
    await expect.poll(() => shown.first().locator("details[open] pre").innerText()).toContain("POST");

    await page.reload();
    await expectReturned(page, 6);
    // The address now names the call the link opened: a reload (or that link, shared) opens it again.
    expect(page.url()).toMatch(/#call-/);
    await expect.poll(() => shown.count()).toBe(1);
    await expect.poll(() => shown.locator("details[open]").count()).toBe(1);
    // The secret was shown once, in the tab that started it.
    expect(await snippet.innerText()).not.toContain(env.CARD_API_CLIENT_SECRET);
    await page.getByText("The secret is not shown again").waitFor();

    const tab = await page.context().newPage();
    await tab.goto(link);
    await expectReturned(tab, 6);
    await tab.close();

    const other = await as(identity("otto", "certification"), new URL(link).pathname);
    const refusal = other.getByRole("main").getByRole("alert");
    await expect.poll(() => refusal.innerText()).toMatch(/Not found/);
    expect(await other.locator("[data-call], [data-check]").count()).toBe(0);
    await refusal.getByRole("link", { name: "Back to Certification" }).click();
    await other.waitForURL(/\/certification$/);
    await other.getByText("No certification started yet.").waitFor();

    const admin = await as(identity("ada", "console-admins"), new URL(link).pathname);
    await expectReturned(admin, 6);

    await page.setViewportSize({ width: 1440, height: 1000 });
    // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("client-certification-page-1440"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 900 });
    await transitionsFinished(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("client-certification-page-390"), fullPage: true });
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it("is listed on Your application; after finishing, a reload shows the verdicts and the evidence again", async () => {
    const page = await as(identity("tina", "certification"), "/certification");
    const listed = page.getByRole("link", { name: /^Started / });
    await expect.poll(() => listed.count()).toBe(1);
    await listed.click();
    await page.waitForURL(/\/certification\/clients\/[0-9a-f-]{36}$/);
    await expectReturned(page, 6);
    await page.getByRole("button", { name: "Finish" }).click();
    await page.getByRole("link", { name: "Download evidence" }).waitFor();
    await page.reload();
    await expectReturned(page, 6);
    // Fetched with the context's proxy headers (a download in Chromium would go without them).
    const href = await page.getByRole("link", { name: "Download evidence" }).getAttribute("href");
    const evidence = await page.request.get(`${url}${href}`);
    expect(evidence.status()).toBe(200);
    expect(evidence.headers()["content-disposition"]).toMatch(/client-certification-cert-.*\.zip/);
    await page.goto(`${url}/certification`);
    await expect
      .poll(() => page.locator("[data-certification]").first().innerText())
      .toMatch(/done.*1 fail/s);
  });
});
