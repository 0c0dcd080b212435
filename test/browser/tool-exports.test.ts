/**
 * The exports for other tools in Chromium: History downloads the runs as a Postman collection and as HAR (cards
 * masked as shown), and the sandbox and certification pages link the console's Postman collection.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadText, screenshotPath } from "@/test/support/browser";
import type { ConsoleServer } from "@/test/support/console-server";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { historyCount } from "./console-support";

let server: ConsoleServer;
let page: Page;
let session: ConsolePage;

beforeAll(async () => {
  session = await openConsolePage({
    context: { viewport: { width: 1280, height: 900 }, acceptDownloads: true },
    demo: true,
  });
  ({ server, page } = session);
});
afterAll(async () => {
  await session?.close();
});

async function downloaded(button: RegExp): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: button }).click(),
  ]);
  return { name: download.suggestedFilename(), text: await downloadText(download) };
}

describe("exports for other tools", () => {
  it("exports History's runs as a Postman collection and as HAR, cards masked", async () => {
    await page.goto(`${server.url}/compare`);
    await page.getByLabel("Card number").fill("6006491000000001");
    await page.getByRole("button", { name: /^Run both/ }).click();
    await expect.poll(() => historyCount(page), { timeout: 20_000 }).toBe(3);
    await page.goto(`${server.url}/history`);
    await page.getByRole("button", { name: /^Export Postman/ }).waitFor();
    await page.screenshot({ path: screenshotPath("history-tool-exports"), fullPage: false });

    const postman = await downloaded(/^Export Postman/);
    expect(postman.name).toMatch(/\.postman_collection\.json$/);
    const collection = JSON.parse(postman.text) as {
      info: { schema: string };
      item: { request: { url: string } }[];
    };
    expect(collection.info.schema).toContain("collection/v2.1.0");
    expect(collection.item).toHaveLength(3);
    expect(collection.item.map(({ request }) => request.url).join(" ")).toContain("/sandbox/transaction/v1/");
    expect(postman.text).toContain("600649******0001");
    expect(postman.text).not.toContain("6006491000000001");

    const har = await downloaded(/^Export HAR/);
    expect(har.name).toMatch(/\.har$/);
    expect((JSON.parse(har.text) as { log: { entries: unknown[] } }).log.entries).toHaveLength(3);
    expect(har.text).not.toContain("6006491000000001");
  });

  it("links the Postman collection from the sandbox and certification pages", async () => {
    await page.goto(`${server.url}/sandbox`);
    const sandboxLink = page.getByRole("link", { name: /Postman collection with the specification/ });
    expect(await sandboxLink.getAttribute("href")).toBe("/api/postman-collection.json?environment=embedded");
    // Hydration may replace the server-rendered link once; scroll to the one that stays.
    await expect
      .poll(() =>
        sandboxLink.scrollIntoViewIfNeeded({ timeout: 2_000 }).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    await page.screenshot({ path: screenshotPath("sandbox-postman-link") });

    await page.goto(`${server.url}/certification`);
    const link = page.getByRole("link", { name: /Postman collection \(/ }).first();
    await link.waitFor();
    await link.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("certification-postman-link") });
    const response = await page.request.get(`${server.url}${await link.getAttribute("href")}`);
    expect(response.status()).toBe(200);
    expect(((await response.json()) as { info: { name: string } }).info.name).toContain("Card Services API");
  });
});
