/**
 * A Gift Balance Inquiry that got no answer in time, as a person meets it: the explanation at the panel's width
 * with its buttons under it, the Request Id whole, and a retry with the same Request Id that says it happened
 * and what came of it. Ids are shown whole where there is room: History's Open dialog.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshotPath } from "@/test/support/browser";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { axeViolations, forceTheme, overflowsHorizontally, transitionsFinished } from "./console-support";

const ACTIVE_CARD = "6006491000000001";
const SLOW_CARD = "6006491000000043";

let session: ConsolePage;
let page: Page;

/** Whether an element shows its whole text: not cut with "…", nothing scrolled out of sight. */
const shownWhole = (element: Locator) =>
  element.evaluate(
    (node) => getComputedStyle(node).textOverflow !== "ellipsis" && node.scrollWidth <= node.clientWidth + 1,
  );

async function runGift(card: string) {
  await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
  await page.getByRole("textbox", { name: "Card number" }).fill(card);
  await page.getByRole("button", { name: /^Run Gift Balance Inquiry/ }).click();
}

beforeAll(async () => {
  session = await openConsolePage({
    profile: "short-timeout",
    context: { viewport: { width: 1440, height: 1000 }, colorScheme: "light", reducedMotion: "reduce" },
    demo: true,
  });
  page = session.page;
});

afterAll(async () => session?.close());

describe("no answer in time", () => {
  it("explains at the panel's width, shows the Request Id whole, and says what each retry came to", async () => {
    await page.goto(`${session.server.url}/inquiry`);
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/inquiries/gift-balance"))
        sent.push(String((JSON.parse(request.postData() ?? "{}") as { request_id?: string }).request_id));
    });
    await runGift(SLOW_CARD);
    const alert = page.getByTestId("api-error");
    await alert.getByText("The upstream did not answer in time").waitFor();
    const requestId = sent[0]!;

    const explanation = alert.getByText(/^The request was sent, but no answer came back/);
    const [text, panel, lookup] = await Promise.all([
      explanation.boundingBox(),
      alert.getByRole("alert").boundingBox(),
      alert.getByRole("button", { name: "Look up by Request Id" }).boundingBox(),
    ]);
    // Not a narrow column beside the buttons: the panel's width, the buttons below it.
    expect(text!.width).toBeGreaterThan(panel!.width * 0.75);
    expect(lookup!.y).toBeGreaterThan(text!.y + text!.height);
    const shownId = alert.locator("code", { hasText: requestId });
    expect(await shownId.innerText()).toBe(requestId);
    expect(await shownWhole(shownId)).toBe(true);

    const retry = page.getByTestId("retry-notice");
    expect(await retry.count()).toBe(0);
    await alert.getByRole("button", { name: "Retry with the same Request Id" }).click();
    await expect.poll(() => sent.length).toBe(2);
    expect(sent[1]).toBe(requestId);
    await expect.poll(() => retry.innerText()).toMatch(/^Retry 1 with the same Request Id, sent at /);
    await expect.poll(() => retry.innerText()).toMatch(/No answer again: the outcome is still unknown/);
    expect(await retry.innerText()).toContain(requestId);
    await page
      .getByTestId("api-error")
      .getByRole("button", { name: "Retry with the same Request Id" })
      .click();
    await expect.poll(() => retry.innerText()).toMatch(/^Retry 2 with the same Request Id/);
    await expect.poll(() => retry.innerText()).toMatch(/No answer again/);
    expect(sent).toEqual([requestId, requestId, requestId]);
    expect(await axeViolations(page)).toEqual([]);

    for (const theme of ["light", "dark"] as const) {
      await forceTheme(page, theme);
      await page.setViewportSize({ width: 1440, height: 1000 });
      await transitionsFinished(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: screenshotPath(`no-answer-1440-${theme}`), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await transitionsFinished(page);
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: screenshotPath(`no-answer-390-${theme}`), fullPage: true });
    }
    await forceTheme(page, "light");
    await page.setViewportSize({ width: 1440, height: 1000 });

    // A new run is no retry: the notice goes.
    await runGift(ACTIVE_CARD);
    await page.getByTestId("gift-balance").waitFor();
    expect(await retry.count()).toBe(0);
  });

  it("shows ids whole in History's Open dialog", async () => {
    await page.goto(`${session.server.url}/history`);
    await page
      .getByRole("button", { name: /^Open Gift Balance Inquiry 600649\*{6}0001/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const id = dialog.locator("dd code").filter({ hasText: /^[0-9a-f-]{36}$/ });
    await id.waitFor();
    expect(await shownWhole(id)).toBe(true);
    // Whole on one line where the dialog has room for it.
    const box = await id.boundingBox();
    expect(box!.height).toBeLessThan(30);
  });

  it("lists those runs in the audit log at 1440 px with event names and Request Ids on one line each", async () => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(`${session.server.url}/audit`);
    const table = page.getByTestId("audit-table");
    const event = table.getByText("gift_balance_inquiry", { exact: true }).first();
    await event.waitFor();
    // The lines the text itself takes (its cell may be taller: the row's other cells set the height).
    const lines = (element: Locator) =>
      element.evaluate((node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      });
    expect(await lines(event)).toBe(1);
    const requestId = table
      .locator("td.font-mono")
      .filter({ hasText: /^[0-9a-f]{8}-/ })
      .first();
    expect(await lines(requestId)).toBe(1);
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("audit-1440-light"), fullPage: true });
  });
});
