/**
 * Every page fits a 390 px phone without the page scrolling sideways, light and dark, in states with content: an
 * inquiry after a timeout, History with runs, Certification with a run, a client certification with calls, a
 * support batch, and the Sessions table of a team console. Also: the console's own 404 page, Escape closing the phone menu, no key hints on a touch
 * screen, and axe's colour contrast on /certification in dark. Screenshots at 390 and 1440 px.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StartedClientCertification } from "@/lib/shared/client-certification-contract";
import { launchBrowser, screenshotPath, waitFor } from "@/test/support/browser";
import { CardApiClient } from "@/test/support/card-api-clients";
import { sharedConsole, type ConsoleServer } from "@/test/support/console-server";
import { connectWithDemoCredentials } from "@/test/support/pages";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";
import { axeViolations, forceTheme } from "./console-support";

const ACTIVE_CARD = "6006491000000001";
const SLOW_CARD = "6006491000000043";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const THEMES = ["light", "dark"] as const;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let batchId = "";
let clientCertificationId = "";

async function callApi(page: Page, method: string, route: string, body?: unknown) {
  return page.evaluate(
    async ({ method, route, body }) => {
      const response = await fetch(route, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
    },
    { method, route, body },
  );
}

/**
 * How far the page is wider than its viewport, and what sticks out the most (for the message): elements past the
 * right edge that are not inside a scroll container of their own.
 */
async function sidewaysOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    const scrolled = (element: Element) => {
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      ) {
        if (getComputedStyle(parent).overflowX !== "visible") return true;
      }
      return false;
    };
    const culprits = [...document.querySelectorAll<HTMLElement>("body *")]
      .map((element) => ({ element, right: element.getBoundingClientRect().right }))
      .filter(({ element, right }) => right > window.innerWidth + 0.5 && !scrolled(element))
      .sort((a, b) => b.right - a.right)
      .slice(0, 6)
      .map(
        ({ element, right }) =>
          `${element.tagName.toLowerCase()}.${element.className} → ${Math.round(right)}`,
      );
    return { overflow, culprits };
  });
}

async function expectFits(page: Page, name: string): Promise<void> {
  for (const theme of THEMES) {
    await forceTheme(page, theme);
    await page.screenshot({ path: screenshotPath(`layout-${name}-${page.viewportSize()?.width}-${theme}`) });
    const { overflow, culprits } = await sidewaysOverflow(page);
    expect(
      overflow,
      `${name} in ${theme} is ${overflow} px too wide:\n${culprits.join("\n")}`,
    ).toBeLessThanOrEqual(0);
  }
  await forceTheme(page, "light");
}

/** Each page in a state with content, once it has loaded. */
const PAGES: { name: string; route: () => string; prepare?: (page: Page) => Promise<void> }[] = [
  { name: "home", route: () => "/" },
  { name: "sandbox", route: () => "/sandbox" },
  { name: "connect", route: () => "/connect" },
  {
    name: "token",
    route: () => "/token",
    prepare: async (page) => {
      await page
        .getByRole("button", { name: /request.*token/i })
        .first()
        .click();
      await page
        .getByText(/fingerprint/i)
        .first()
        .waitFor();
    },
  },
  {
    name: "inquiry-timeout",
    route: () => "/inquiry",
    prepare: async (page) => {
      await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
      // The test card choice comes after the page, from its own request: measured too.
      await page.getByRole("combobox", { name: "Test cards" }).waitFor();
      await page.getByRole("textbox", { name: "Card number" }).fill(SLOW_CARD);
      await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
      await page.getByRole("button", { name: "Retry with the same Request Id" }).waitFor();
    },
  },
  {
    name: "compare",
    route: () => "/compare",
    prepare: async (page) => {
      await page.getByLabel("Card number").fill(ACTIVE_CARD);
      await page.getByRole("button", { name: "Run both" }).click();
      await page.getByText(/equals balances\.gift/).waitFor();
    },
  },
  { name: "history", route: () => "/history", prepare: (page) => page.getByRole("row").nth(2).waitFor() },
  {
    name: "certification",
    route: () => "/certification",
    prepare: (page) =>
      page
        .getByRole("button", { name: /^Open run of/ })
        .first()
        .waitFor(),
  },
  {
    name: "audit",
    route: () => "/audit",
    prepare: (page) => page.getByRole("button", { name: "Verify chain" }).waitFor(),
  },
  { name: "support", route: () => "/support" },
  {
    name: "support-batch",
    route: () => `/support/batches/${batchId}`,
    prepare: (page) => page.getByRole("link", { name: "Download CSV" }).waitFor(),
  },
  {
    name: "client-certification",
    route: () => `/certification/clients/${clientCertificationId}`,
    prepare: (page) => page.locator("[data-call]").nth(1).waitFor(),
  },
  { name: "signed-out", route: () => "/signed-out" },
  {
    name: "not-found",
    route: () => "/nope",
    prepare: (page) => page.getByRole("main").getByRole("link", { name: /home/i }).waitFor(),
  },
];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("every page fits a phone, light and dark", () => {
  beforeAll(async () => {
    server = await sharedConsole("short-timeout");
    context = await browser.newContext({ viewport: PHONE, reducedMotion: "reduce" });
    const page = await context.newPage();
    await connectWithDemoCredentials(page, server.url);
    expect((await callApi(page, "POST", "/api/token", {})).status).toBe(200);
    const batch = await callApi(page, "POST", "/api/support/batches", {
      cards: [ACTIVE_CARD, "6006491000000027"],
      reason: "layout check",
    });
    expect(batch.status).toBe(202);
    batchId = (batch.body as { id: string }).id;
    const started = await callApi(page, "POST", "/api/client-certifications", { environment: "embedded" });
    expect(started.status).toBe(201);
    const certification = started.body as StartedClientCertification;
    clientCertificationId = certification.id;
    const application = new CardApiClient({
      CARD_API_AUTH_URL: certification.auth_url,
      CARD_API_BASE_URL: certification.base_url,
      CARD_API_CLIENT_ID: certification.client_id,
      CARD_API_CLIENT_SECRET: certification.client_secret,
    });
    expect(await application.balance(ACTIVE_CARD)).toBe(200);
    const run = await callApi(page, "POST", "/api/certification/runs", { environment: "embedded" });
    expect(run.status).toBeLessThan(300);
    const runId = (run.body as { id: string }).id;
    await waitFor(
      async () =>
        ((await callApi(page, "GET", `/api/certification/runs/${runId}`)).body as { status: string })
          .status !== "running",
      true,
      60_000,
    );
    await page.close();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.stop();
  });

  describe("each page", () => {
    // One tab goes from page to page, as a person would: each is a full load of its own.
    let page: Page;
    beforeAll(async () => {
      page = await context.newPage();
    });
    afterAll(() => page?.close());

    for (const { name, route, prepare } of PAGES) {
      it(`${name} fits 390 px`, async () => {
        await page.goto(`${server.url}${route()}`);
        await page.waitForLoadState("networkidle");
        await prepare?.(page);
        await expectFits(page, name);
      });
    }
  });

  it("at 1440 px History's table and the certification runs stay inside their cards", async () => {
    // The same context: History's runs are in its IndexedDB.
    const page = await context.newPage();
    await page.setViewportSize(DESKTOP);
    try {
      for (const path of ["/history", "/certification"]) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole("table").first().waitFor();
        const spill = await page.evaluate(() =>
          [...document.querySelectorAll("table")].map((table) => {
            const card = table.closest("section") ?? table.parentElement!;
            return Math.round(table.getBoundingClientRect().right - card.getBoundingClientRect().right);
          }),
        );
        expect(Math.max(...spill), `a table of ${path} spills out of its card`).toBeLessThanOrEqual(0);
        await expectFits(page, path.slice(1));
      }
    } finally {
      await page.close();
    }
  });

  it("a wide table on a phone says it scrolls sideways", async () => {
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/certification`);
      await page
        .getByRole("button", { name: /^Open run of/ })
        .first()
        .waitFor();
      const region = page.getByRole("region", { name: "Certification runs" });
      await expect.poll(() => region.getAttribute("tabindex")).toBe("0");
      const hint = page.locator(`[id="${await region.getAttribute("aria-describedby")}"]`);
      expect(await hint.textContent()).toMatch(/Scroll sideways for more/);
      expect(await hint.isVisible()).toBe(true);
    } finally {
      await page.close();
    }
  });

  it("an unknown page is the console's own 404: its header, a link home, status 404", async () => {
    const page = await context.newPage();
    try {
      const response = await page.goto(`${server.url}/nope`);
      expect(response?.status()).toBe(404);
      await page.getByRole("banner").getByRole("button", { name: "Menu" }).waitFor();
      await page.getByRole("heading", { level: 1, name: /not found/i }).waitFor();
      const home = page.getByRole("main").getByRole("link", { name: /home/i });
      expect(await home.getAttribute("href")).toBe("/");
    } finally {
      await page.close();
    }
  });

  it("Escape closes the phone menu and returns focus to its button", async () => {
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/`);
      const menu = page.getByRole("button", { name: "Menu" });
      await menu.click();
      await page.locator("#console-menu").getByRole("link", { name: "Inquiry" }).focus();
      await page.keyboard.press("Escape");
      expect(await menu.getAttribute("aria-expanded")).toBe("false");
      expect(await page.locator("#console-menu").isVisible()).toBe(false);
      expect(await menu.evaluate((button) => button === document.activeElement)).toBe(true);
    } finally {
      await page.close();
    }
  });

  it("key hints show with a mouse, not on a touch screen", async () => {
    const touch = await browser.newContext({
      viewport: PHONE,
      hasTouch: true,
      isMobile: true,
      storageState: await context.storageState(),
    });
    const desk = await browser.newPage({ viewport: DESKTOP, storageState: await context.storageState() });
    try {
      const phone = await touch.newPage();
      for (const target of [phone, desk]) {
        await target.goto(`${server.url}/inquiry`);
        await target.getByRole("button", { name: /^Run / }).waitFor();
      }
      expect(await phone.locator("kbd").filter({ visible: true }).count()).toBe(0);
      expect(await desk.locator("kbd").filter({ visible: true }).count()).toBeGreaterThan(0);
    } finally {
      await touch.close();
      await desk.close();
    }
  });

  it("axe finds no colour-contrast failure on /certification in dark", async () => {
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/certification`);
      await page
        .getByRole("button", { name: /^Open run of/ })
        .first()
        .click();
      await page.getByRole("table").nth(1).waitFor();
      await forceTheme(page, "dark");
      const contrast = (await axeViolations(page)).filter((line) => line.startsWith("color-contrast"));
      expect(contrast.join("\n")).toBe("");
    } finally {
      await page.close();
    }
  });
});

describe("the Sessions page of a team console fits a phone", () => {
  const SECRET = "proxy-shared-secret-for-the-layout";
  const identity = proxyIdentity(SECRET);
  let team: ConsoleServer;
  let url: string;

  beforeAll(async () => {
    team = await startProxyConsole({
      secret: SECRET,
      roleGroups: "admin:console-admins,support:support-desk",
    });
    url = team.url;
  }, 120_000);

  afterAll(async () => {
    await team?.stop();
  });

  it("/admin/sessions fits 390 px with its row actions", async () => {
    const agent = await browser.newContext({
      extraHTTPHeaders: identity("tess.with.a.long.name@example.com", "console-admins"),
    });
    const admin = await browser.newContext({
      viewport: PHONE,
      reducedMotion: "reduce",
      extraHTTPHeaders: identity("ada", "console-admins"),
    });
    try {
      // A stored session each: saving credentials writes one.
      for (const user of [agent, admin]) {
        const other = await user.newPage();
        await other.goto(`${url}/connect`);
        expect(
          (await callApi(other, "PUT", "/api/session/credentials", { profile: "demo" })).status,
        ).toBeLessThan(300);
        await other.close();
      }
      const page = await admin.newPage();
      await page.goto(`${url}/admin/sessions`);
      await page
        .getByRole("button", { name: /^End session/ })
        .first()
        .waitFor();
      await expectFits(page, "admin-sessions");
    } finally {
      await agent.close();
      await admin.close();
    }
  });
});
