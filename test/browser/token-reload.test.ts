/**
 * /token after a reload still shows the last token request and its Code panel: read back from this browser's
 * History (metadata and the exchange with the token redacted), never a token kept in the browser.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";

let session: ConsolePage;

beforeAll(async () => {
  session = await openConsolePage({ context: { viewport: { width: 1440, height: 1000 } }, demo: true });
});

afterAll(async () => session?.close());

describe("the token page across a reload", () => {
  it("keeps the last token request and its code, and no token in browser storage", async () => {
    const { page, server } = session;
    await page.goto(`${server.url}/token`);
    await page.getByRole("button", { name: /^Request (a new )?token/ }).click();
    await page.getByTestId("token-countdown").waitFor();
    await page.getByText("Last token request", { exact: true }).waitFor();

    await page.reload();
    await page.getByText("Last token request (from history)").waitFor();
    await page.getByText("Code", { exact: true }).click();
    await expect
      .poll(() => page.locator("pre").filter({ hasText: "/reporting/v1/auth/token" }).count())
      .toBeGreaterThan(0);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
  });
});
