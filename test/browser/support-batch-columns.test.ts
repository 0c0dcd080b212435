/**
 * A batch uploaded as a CSV with columns of the agent's own (customer, note): each result row shows them beside
 * the card, cards quoted in a note as last 4 only; at 390 px the results table scrolls sideways on its own and
 * says so. 1440 and 390 px, light and dark.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshotPath } from "@/test/support/browser";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { axeViolations, forceTheme, overflowsHorizontally, transitionsFinished } from "./console-support";

let session: ConsolePage;
let page: Page;

const CSV = [
  "card_number,customer,note",
  "6006491000000001,Ada Lovelace,card replaced 6006491000000019 on the phone",
  "6006491000000019,Charles Babbage,",
  "",
].join("\n");

beforeAll(async () => {
  // The run's shared console: its limits are lifted, and the batch is this file's own (found by its address).
  session = await openConsolePage({
    context: { viewport: { width: 1440, height: 1000 }, colorScheme: "light", reducedMotion: "reduce" },
    demo: true,
  });
  page = session.page;
});

afterAll(async () => session?.close());

describe("a batch's results", () => {
  it("show the uploaded columns beside each card, and cue sideways scrolling on a phone", async () => {
    await page.goto(`${session.server.url}/support`);
    await page.getByLabel(/Card numbers \(one per line/).fill(CSV);
    await page.getByRole("button", { name: "Start batch" }).click();
    await page.waitForURL(/\/support\/batches\/[0-9a-f-]{36}$/);
    const bar = page.getByRole("progressbar", { name: "Cards looked up" });
    await expect.poll(() => bar.getAttribute("aria-valuenow"), { timeout: 60_000 }).toBe("2");

    const table = page.getByRole("table", { name: /^Results/ });
    await table.getByRole("columnheader", { name: "customer" }).waitFor();
    expect(await table.getByRole("columnheader", { name: "note" }).count()).toBe(1);
    const ada = table.getByRole("row", { name: /Ada Lovelace/ });
    // The results follow the progress: waited for, as a person would.
    await ada.getByRole("cell", { name: "•••• 0001" }).waitFor();
    expect(await ada.innerText()).toContain("card replaced ************0019 on the phone");
    expect(
      await table
        .getByRole("row", { name: /Charles Babbage/ })
        .getByText("•••• 0019")
        .count(),
    ).toBe(1);
    expect(await page.content()).not.toMatch(/6006491000000001|6006491000000019|600649\*+/);
    // The cue says exactly what is so: shown when the table is wider than its panel.
    const region = page.getByRole("region", { name: "Results table" });
    const scrolls = () => region.evaluate((element) => element.scrollWidth > element.clientWidth);
    const cue = page.getByText("Scroll sideways for more");
    expect(await cue.count()).toBe((await scrolls()) ? 1 : 0);
    expect(await axeViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 900 });
    await cue.waitFor();
    expect(await scrolls()).toBe(true);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    for (const theme of ["light", "dark"] as const) {
      await forceTheme(page, theme);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 1000 });
        await transitionsFinished(page);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({
          path: screenshotPath(`support-batch-columns-${width}-${theme}`),
          fullPage: true,
        });
      }
    }
  }, 120_000);
});
