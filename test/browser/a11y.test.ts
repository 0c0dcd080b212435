/**
 * axe-core on every page of the console, light and dark, in states with content: demo credentials saved,
 * a token requested and inquiries run, so that result panels, tables and history rows are checked too.
 * Zero violations of any impact are allowed.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "@/test/support/browser";
import { sharedConsole, type ConsoleServer } from "@/test/support/console-server";
import { axeViolations, transitionsFinished } from "./console-support";

const CARD = "6006491000000001";

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

async function callApi(page: Page, method: string, route: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, route, body }) =>
      (
        await fetch(route, {
          method,
          headers: body === undefined ? {} : { "Content-Type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).status,
    { method, route, body },
  );
}

/** Puts each page in a state with content after it has loaded. */
const PAGES: { route: string; prepare?: (page: Page) => Promise<void> }[] = [
  { route: "/" },
  { route: "/sandbox" },
  { route: "/connect" },
  {
    route: "/token",
    prepare: async (page) => {
      await page
        .getByRole("button", { name: /request.*token|get.*token/i })
        .first()
        .click();
      await page
        .getByText(/fingerprint/i)
        .first()
        .waitFor();
    },
  },
  {
    route: "/inquiry",
    prepare: async (page) => {
      await page
        .getByLabel(/card number/i)
        .first()
        .fill(CARD);
      await page.getByRole("button", { name: /^run/i }).first().click();
      await page
        .getByText(/201|200/)
        .first()
        .waitFor();
    },
  },
  {
    route: "/compare",
    prepare: async (page) => {
      await page.getByLabel("Card number").fill(CARD);
      await page.getByRole("button", { name: "Run both" }).click();
      await page.getByText(/equals balances\.gift/).waitFor();
    },
  },
  {
    // The diff of the two newest runs (there are runs by now: the inquiry and compare pages made them).
    route: "/compare?view=diff",
    prepare: async (page) => {
      await page.getByTestId("diff-verdict").waitFor();
    },
  },
  {
    route: "/history",
    prepare: async (page) => {
      await page.getByRole("row").nth(1).waitFor();
    },
  },
  {
    // The local user is an admin: the log holds the calls above; the chain verdict is checked too.
    route: "/audit",
    prepare: async (page) => {
      await page.getByTestId("audit-table").getByRole("row").nth(1).waitFor();
      await page.getByRole("button", { name: "Verify chain" }).click();
      await page.getByText("Chain intact").waitFor();
    },
  },
  { route: "/signed-out" },
  { route: "/signed-out?error=state_mismatch" },
];

describe("accessibility (axe-core): no violations on any page, light and dark", () => {
  beforeAll(async () => {
    server = await sharedConsole();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // One tab goes from page to page, as a person would: each is a full load of its own.
    page = await context.newPage();
    await page.goto(`${server.url}/connect`);
    expect(await callApi(page, "PUT", "/api/session/credentials", { profile: "demo" })).toBeLessThan(300);
    expect(await callApi(page, "POST", "/api/token", {})).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  // Each page is loaded and put in its state once, then checked in one scheme and the other.
  for (const { route, prepare } of PAGES) {
    it(`${route} in light and dark mode`, async () => {
      await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
      await page.goto(`${server.url}${route}`);
      await page.waitForLoadState("networkidle");
      await prepare?.(page);
      const found: string[] = [];
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
        // Whatever the theme control's default, force the scheme under test: the `dark` class on <html>.
        await page.evaluate((dark) => {
          document.documentElement.classList.toggle("dark", dark);
          document.documentElement.style.colorScheme = dark ? "dark" : "light";
        }, scheme === "dark");
        await transitionsFinished(page); // axe reads colours as they end up, not mid-transition
        found.push(...(await axeViolations(page)).map((line) => `${scheme}: ${line}`));
      }
      expect(found.join("\n")).toBe("");
    });
  }
});
