/**
 * A client certification driven step by step from its page with a well-behaved application (fetch from the test
 * process): each step turns done once its calls are seen, and Finish brings a headline verdict, "Passed: 8 of
 * 8", with the evidence download beside it and in view, and no Start step buttons left. 1440 and 390 px,
 * light and dark.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVE_CARD, INACTIVE_CARD } from "@/lib/shared/client-certification-contract";
import { screenshotPath } from "@/test/support/browser";
import { CardApiClient, type ClientEnv } from "@/test/support/card-api-clients";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { axeViolations, forceTheme, overflowsHorizontally, transitionsFinished } from "./console-support";

let session: ConsolePage;
let page: Page;

function parseEnv(text: string): ClientEnv {
  const entries = text
    .trim()
    .split("\n")
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]);
  return Object.fromEntries(entries) as ClientEnv;
}

const stepStatus = (id: string) => page.locator(`[data-step="${id}"]`).innerText();

/** Starts a step from its button, runs the application's calls for it, and waits for the step to be done. */
async function step(id: string, title: string, calls: () => Promise<unknown>) {
  await page.getByRole("button", { name: `Start step ${title}` }).click();
  await expect.poll(() => stepStatus(id)).toMatch(/\barmed\b/);
  await calls();
  await expect.poll(() => stepStatus(id)).toMatch(/\bdone\b/);
}

beforeAll(async () => {
  session = await openConsolePage({
    context: { viewport: { width: 1440, height: 900 }, colorScheme: "light", reducedMotion: "reduce" },
  });
  page = session.page;
});

afterAll(async () => session?.close());

describe("a client certification's verdict", () => {
  it("marks each step done as its calls come, and leads with Passed: 8 of 8 and the evidence after Finish", async () => {
    await page.goto(`${session.server.url}/certification`);
    await page.getByRole("button", { name: "Start certification" }).click();
    await page.waitForURL(/\/certification\/clients\/[0-9a-f-]{36}$/);
    const snippet = page.getByLabel(".env for your application");
    await expect.poll(() => snippet.innerText()).toMatch(/CARD_API_CLIENT_SECRET=\S{43}/);
    const application = new CardApiClient(parseEnv(await snippet.innerText()));

    await step("tokens", "Tokens", async () => {
      for (let call = 0; call < 3; call += 1) expect(await application.balance(ACTIVE_CARD)).toBe(200);
    });
    await step("declined", "Declined inquiry", () => application.gift(INACTIVE_CARD));
    await step("revoked", "Revoked token", async () => {
      expect((await application.gift(ACTIVE_CARD)).status).toBe(201);
    });
    await step("timeout", "No answer in time", async () => {
      expect((await application.gift(ACTIVE_CARD)).status).toBe(200);
    });
    await step("rate_limited", "Rate limited", async () => {
      await application.balance(ACTIVE_CARD);
      await application.balance(ACTIVE_CARD);
    });
    expect(await page.getByTestId("client-verdict").count()).toBe(0);

    await page.getByRole("button", { name: "Finish" }).click();
    const verdict = page.getByTestId("client-verdict");
    await verdict.waitFor();
    expect(await verdict.getByText(/^Passed: 8 of 8$/).count()).toBe(1);
    // Finish is at the foot of the page: the verdict it brings takes the focus, so it is in view.
    await expect.poll(() => verdict.evaluate((element) => element === document.activeElement)).toBe(true);
    const evidence = page.getByRole("link", { name: "Download evidence" });
    expect(await evidence.count()).toBe(1);
    expect(await verdict.getByRole("link", { name: "Download evidence" }).isVisible()).toBe(true);
    const box = (await evidence.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    expect(await page.getByRole("button", { name: /^Start step/ }).count()).toBe(0);
    for (const id of ["tokens", "declined", "revoked", "timeout", "rate_limited"]) {
      expect(await stepStatus(id)).toMatch(/\bdone\b/);
    }
    expect(await axeViolations(page)).toEqual([]);

    for (const theme of ["light", "dark"] as const) {
      await forceTheme(page, theme);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await transitionsFinished(page);
        expect(await overflowsHorizontally(page)).toBe(false);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: screenshotPath(`client-certification-verdict-${width}-${theme}`) });
      }
    }
  }, 120_000);
});
