/**
 * The starter clients in Chromium (docs/design.md §12): "Your application" offers the four zips beside its .env, and
 * the inquiry page's Code panel and the /sandbox page link them; each link downloads its zip.
 */
import type { Locator, Page } from "playwright-core";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshotPath } from "@/test/support/browser";
import type { ConsoleServer } from "@/test/support/console-server";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";

const TITLES = ["JavaScript (Node 20+)", "Python 3.9+", "Java 17+", "Go 1.19+"];
const LANGUAGES = ["node", "python", "java", "go"];

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

/** The four links inside `within`, in catalogue order, each to its zip. */
async function expectZipLinks(within: Locator) {
  for (const [index, title] of TITLES.entries()) {
    const link = within.getByRole("link", { name: title, exact: true });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`/api/starter-clients/${LANGUAGES[index]}.zip`);
  }
}

describe("starter clients in the console's pages", () => {
  it("'Your application' offers the four zips beside its .env; the Node one downloads", async () => {
    await page.goto(`${server.url}/certification`);
    await page.getByRole("button", { name: "Start certification" }).click();
    await page.getByLabel(".env for your application").waitFor();
    const offer = page.getByRole("region", { name: "Starter clients" });
    await expectZipLinks(offer);
    await offer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("starter-clients-offer") });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      offer.getByRole("link", { name: TITLES[0], exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("card-api-client-node.zip");
    const zip = await page.request.get(`${server.url}/api/starter-clients/node.zip`);
    expect(Object.keys(unzipSync(await zip.body()))).toContain("card-api-client-node/client.mjs");
  });

  it("the /sandbox page and the inquiry page's Code panel link them", async () => {
    await page.goto(`${server.url}/sandbox`);
    await expectZipLinks(page.locator("main"));

    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill("6006491000000001");
    await page.getByRole("button", { name: /^Run/ }).first().click();
    await page.getByRole("table", { name: "Purse balances" }).waitFor();
    const raw = page.getByRole("region", { name: "Request and response" });
    await raw.getByText("Code", { exact: true }).click();
    await expectZipLinks(raw);
  });
});
