/**
 * History's runs table at 1440 px holds every kind of run inside its card, the delete button included: a
 * free-form run, a lookup by Request Id and a long location among them.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshotPath } from "@/test/support/browser";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { forceTheme, overflowsHorizontally, transitionsFinished } from "./console-support";

let session: ConsolePage;
let page: Page;

beforeAll(async () => {
  session = await openConsolePage({
    context: { viewport: { width: 1440, height: 1000 }, colorScheme: "light", reducedMotion: "reduce" },
    demo: true,
  });
  page = session.page;
});

afterAll(async () => session?.close());

describe("the History table at 1440 px", () => {
  it("fits its card with a free-form run, a lookup and a long location", async () => {
    await page.goto(`${session.server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill("6006491000000001");
    await page
      .getByRole("textbox", { name: "Location ID" })
      .fill("store-of-the-north-east-region-0042-back-office");
    await page.getByRole("button", { name: /^Run Gift Balance Inquiry/ }).click();
    await page.getByTestId("gift-balance").waitFor();
    await page.getByRole("button", { name: "Look up by Request Id" }).first().click();
    await page.getByText("Found by Request Id").waitFor();
    await page.getByRole("button", { name: "Edit request" }).click();
    await page
      .getByRole("form", { name: "Request editor" })
      .getByRole("button", { name: "Send request" })
      .click();
    await page.getByTestId("gift-balance").waitFor();

    await page.goto(`${session.server.url}/history`);
    const table = page.getByTestId("history-table");
    await expect.poll(() => table.locator("tbody tr").count()).toBeGreaterThanOrEqual(3);
    expect(await table.innerText()).toContain("free-form");
    const card = page.getByRole("region", { name: "Runs table" }).locator("xpath=..");
    const cardBox = (await card.boundingBox())!;
    const tableBox = (await table.boundingBox())!;
    expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    for (const remove of await page.getByRole("button", { name: /^Delete / }).all()) {
      const box = (await remove.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    }
    expect(await overflowsHorizontally(page)).toBe(false);

    for (const theme of ["light", "dark"] as const) {
      await forceTheme(page, theme);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 1000 });
        await transitionsFinished(page);
        expect(await overflowsHorizontally(page)).toBe(false);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: screenshotPath(`history-${width}-${theme}`), fullPage: true });
      }
    }
  });
});
