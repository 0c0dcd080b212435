/**
 * The console pages end to end in Chromium against the embedded sandbox: connect, token inspector,
 * inquiry runner (gift, balance, declined, fault cards), the shell (theme, Ctrl+Enter, header status),
 * copy as code, history, custom credentials and forgetting the session. Screenshots of each page, light
 * and dark (README screenshots: `npm run screenshots`).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "@/test/support/browser";
import { sharedConsole, startConsole, type ConsoleServer } from "@/test/support/console-server";
import { SHARED_CONSOLE_PROFILES } from "@/test/support/shared-consoles";
import { axeViolations, forceTheme, overflowsHorizontally, storedRuns } from "./console-support";

const ACTIVE_CARD = "6006491000000001";
const INACTIVE_CARD = "6006491000000027";
const ERROR_CARD = "6006491000000035";
const SLOW_CARD = "6006491000000043";
const NOT_JSON_CARD = "6006491000000050";
const MASKED_ACTIVE = "600649******0001";
/** The sandbox's demo secret on this console: typed as a custom secret, then searched for. */
const DEMO_SECRET = SHARED_CONSOLE_PROFILES["short-timeout"].SANDBOX_DEMO_SECRET;

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

async function expectNoAxeViolations(): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await forceTheme(page, theme);
    expect((await axeViolations(page)).join("\n"), `axe in ${theme} mode on ${page.url()}`).toBe("");
  }
  await forceTheme(page, "light");
}

async function runInquiry(
  operation: "Gift Balance Inquiry" | "Balance Inquiry",
  card: string,
): Promise<void> {
  await page.getByRole("radio", { name: new RegExp(`^${operation}`) }).check();
  await page.getByRole("textbox", { name: "Card number" }).fill(card);
  const response = page.waitForResponse((candidate) => candidate.url().includes("/api/inquiries/"));
  await page.getByRole("button", { name: `Run ${operation}` }).click();
  await response;
}

const result = () => page.getByRole("region", { name: /^(Gift Balance Inquiry|Balance Inquiry)$/ });

beforeAll(async () => {
  server = await sharedConsole("short-timeout");
});

describe("console pages against the embedded sandbox", () => {
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: "light",
      reducedMotion: "reduce",
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    page = await context.newPage();
  });

  afterAll(() => browser?.close());

  it("home: says what the console is and for whom, with the quick start and the sandbox link", async () => {
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByText("Not connected").count()).toBe(1);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toMatch(/console/i);
    for (const step of ["Connect", "Request a token", "Run an inquiry"]) {
      expect(await page.getByRole("link", { name: new RegExp(step) }).count()).toBeGreaterThan(0);
    }
    expect(await page.getByRole("heading", { name: "Who it is for" }).count()).toBe(1);
    expect(await page.locator('a[href="/sandbox"]').count()).toBeGreaterThan(0);
    await expectNoAxeViolations();
  });

  it("connect: demo credentials connect the session and the header shows the client", async () => {
    await page.goto(`${server.url}/connect`);
    await page.getByText("No credentials yet.").waitFor();
    await page.getByRole("button", { name: "Use demo credentials" }).click();
    await page.getByText("Secret set", { exact: true }).waitFor();
    expect(await page.getByTestId("current-client-id").textContent()).toBe("demo-client");
    const header = page.getByRole("banner");
    expect(await header.getByRole("link", { name: /demo-client/ }).count()).toBe(1);
    expect(await header.getByRole("link", { name: "No token" }).count()).toBe(1);
    await expectNoAxeViolations();
  });

  it("token: scopes as chips with their operations, countdown, fingerprint, decoded JWT", async () => {
    await page.goto(`${server.url}/token`);
    await page.getByText("No token in this session").waitFor();
    await page.getByRole("button", { name: "Request token" }).click();
    await page.getByTestId("token-countdown").waitFor();

    const chips = page.getByTestId("scope-chip");
    expect(await chips.allTextContents()).toEqual([
      expect.stringContaining("read:reports"),
      expect.stringContaining("read:transactions"),
      expect.stringContaining("export:reports"),
    ]);
    expect(await chips.nth(1).textContent()).toContain("Gift Balance Inquiry · Balance Inquiry");
    await expect
      .poll(() => page.getByTestId("token-countdown").textContent())
      .toMatch(/^1:59:\d\d$|^2:00:00$/);
    expect(
      await page.getByRole("progressbar", { name: "Token lifetime left" }).getAttribute("aria-valuenow"),
    ).toMatch(/^(9\d|100)$/);
    const fingerprint = page.getByRole("region", { name: "Access token" }).locator("code");
    expect(await fingerprint.textContent()).toMatch(/^[0-9a-f]{12}$/);
    const claims = await page.getByRole("group", { name: "JWT claims" }).textContent();
    expect(claims).toContain('"scope"');
    expect(claims).toContain('"exp"');
    expect(await page.getByRole("group", { name: "meta" }).textContent()).toMatch(/req-\d+-/);
    expect(await page.getByRole("group", { name: "jsonapi" }).textContent()).toContain('"version"');
    // The header's countdown runs too.
    expect(await page.getByTestId("header-token-countdown").textContent()).toMatch(/Token\s*\d:\d\d:\d\d/);
    // The exchange is there, with the secret redacted, and copyable with $CLIENT_SECRET.
    const exchange = page.getByRole("region", { name: "Last token request" });
    await exchange.getByText("Request", { exact: true }).click();
    expect(await exchange.textContent()).not.toContain(DEMO_SECRET);
    await expectNoAxeViolations();
  });

  it("inquiry: Gift Balance Inquiry approved, 25.00, with copyable ids; location_id is remembered", async () => {
    await page.goto(`${server.url}/inquiry`);
    await page.getByText("No result yet").waitFor();
    // Nothing remembered yet: on the embedded sandbox the field starts with the sandbox's demo location.
    await expect
      .poll(() => page.getByRole("textbox", { name: "Location ID" }).inputValue())
      .toBe("store-001");
    await page.getByRole("textbox", { name: "Location ID" }).fill("store-42");
    await runInquiry("Gift Balance Inquiry", ACTIVE_CARD);
    await result().getByText("✓ Approved").waitFor();
    expect(await page.getByTestId("gift-balance").textContent()).toBe("25.00");
    const text = await result().textContent();
    expect(text).toContain("transaction_approved");
    expect(text).toContain(MASKED_ACTIVE);
    expect(text).not.toContain(ACTIVE_CARD);
    for (const name of ["transaction_id", "external_id", "Request Id"]) {
      expect(
        await result()
          .getByRole("button", { name: `Copy ${name}` })
          .count(),
      ).toBe(1);
    }
    expect(await result().locator("code").first().textContent()).toMatch(/^[0-9a-f-]{36}$/);
    await expectNoAxeViolations();

    // API specification §4.3 item 3, checked rather than assumed: the transaction is found by its Request Id.
    await result().getByRole("button", { name: "Look up by Request Id" }).click();
    const lookup = result().getByTestId("lookup-result");
    await lookup.waitFor();
    const found = await lookup.innerText();
    expect(found).toMatch(/Found by Request Id\s+200 OK/);
    expect(found).toContain("the same transaction");
    expect(found).toContain(
      "Path as implemented by the sandbox; the specification does not show the real one.",
    );
    expect(found).toContain("/transaction/v1/transactions/request-id/");
    expect(found).not.toContain(ACTIVE_CARD);
    await expectNoAxeViolations();

    await page.reload();
    await expect.poll(() => page.getByRole("textbox", { name: "Location ID" }).inputValue()).toBe("store-42");
    expect(await page.evaluate(() => Object.keys(localStorage).sort())).toEqual(["console.location_id"]);
  });

  it("inquiry: Balance Inquiry shows the eight purses as a table", async () => {
    await runInquiry("Balance Inquiry", ACTIVE_CARD);
    const table = page.getByRole("table", { name: "Purse balances" });
    await table.waitFor();
    const rows = await table.locator("tbody tr").allTextContents();
    expect(rows).toEqual([
      "Giftgift25.00",
      "Gift rewardsgift_rewards5.00",
      "Loyaltyloyalty120.00",
      "Loyalty rewardsloyalty_rewards10.00",
      "Discountdiscount0.00",
      "Promotionalpromotional15.00",
      "Punchpunch7.00",
      "Punch rewardspunch_rewards1.00",
    ]);
    expect(await result().textContent()).toContain("200 OK");
  });

  it("inquiry: an inactive card is declined with its response_code", async () => {
    await runInquiry("Gift Balance Inquiry", INACTIVE_CARD);
    await result().getByText("✕ Declined").waitFor();
    expect(await result().textContent()).toContain("card_inactive");
  });

  it("inquiry: fault cards show the raw response as it came (500, not JSON) or the timeout", async () => {
    await runInquiry("Gift Balance Inquiry", ERROR_CARD);
    await result().getByText("500 Internal Server Error").first().waitFor();
    const raw = page.getByRole("region", { name: "Request and response" });
    // The response section opens by itself for a failure, with the body in the JSON viewer.
    expect(await raw.getByRole("group", { name: "Response body" }).isVisible()).toBe(true);
    expect(await raw.getByRole("group", { name: "Response body" }).textContent()).toContain('"errors"');
    await expectNoAxeViolations();

    await runInquiry("Balance Inquiry", NOT_JSON_CARD);
    await result().getByText("200 OK · body is not JSON").waitFor();
    const body = page
      .getByRole("region", { name: "Request and response" })
      .getByRole("group", { name: "Response body" });
    expect(await body.isVisible()).toBe(true);
    expect(await body.textContent()).toContain("Text (not JSON)");

    await runInquiry("Gift Balance Inquiry", SLOW_CARD);
    await page.getByRole("alert").filter({ hasText: "did not answer in time" }).waitFor();
    expect(await page.getByRole("alert").filter({ hasText: "upstream_timeout" }).count()).toBe(1);
  });

  it("Ctrl+Enter runs the current form", async () => {
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    const response = page.waitForResponse((candidate) => candidate.url().endsWith("/api/inquiries/balance"));
    await page.keyboard.press("Control+Enter");
    expect((await response).status()).toBe(200);
    await page.getByRole("table", { name: "Purse balances" }).waitFor();
  });

  it("copy as cURL: ACCESS_TOKEN and CARD_NUMBER from the shell, the full number only on explicit opt-in", async () => {
    const raw = page.getByRole("region", { name: "Request and response" });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await raw.getByRole("button", { name: "Copy as cURL" }).click();
    await expect.poll(clipboard).toContain("curl -sS -i ");
    let copied = await clipboard();
    expect(copied).toContain("-X 'POST'");
    expect(copied).toContain(`-H 'Authorization: Bearer '"$ACCESS_TOKEN"`);
    expect(copied).toContain('"${ACCESS_TOKEN:?');
    expect(copied).toContain('"${CARD_NUMBER:?');
    expect(copied).toContain(`the console keeps only ${MASKED_ACTIVE}`);
    expect(copied).not.toContain(ACTIVE_CARD);

    await raw.getByRole("button", { name: "Copy as fetch" }).click();
    await expect.poll(clipboard).toContain("await fetch(");
    copied = await clipboard();
    expect(copied).toContain("env('ACCESS_TOKEN')");
    expect(copied).toContain("env('CARD_NUMBER')");
    expect(copied).not.toContain(ACTIVE_CARD);

    await raw.getByRole("checkbox", { name: "Unmask the card in copied code" }).check();
    await raw.getByRole("button", { name: "Copy as cURL" }).click();
    await expect.poll(clipboard).toContain(ACTIVE_CARD);
    expect(await clipboard()).toContain("curl -sS -i ");

    await raw.getByText("Code", { exact: true }).click();
    expect(await raw.getByTestId("code-snippet").textContent()).toContain(ACTIVE_CARD);
    await raw.getByRole("checkbox", { name: "Unmask the card in copied code" }).uncheck();
    expect(await raw.getByTestId("code-snippet").textContent()).not.toContain(ACTIVE_CARD);

    // "With token request" in the code panel holds for the header's buttons too: one choice, one code.
    await raw.getByRole("checkbox", { name: "With token request" }).check();
    await raw.getByRole("button", { name: "Copy as cURL" }).click();
    await expect.poll(clipboard).toContain("/reporting/v1/auth/token");
    copied = await clipboard();
    expect(copied).toContain("CLIENT_SECRET");
    expect(copied).toBe(await raw.getByTestId("code-snippet").textContent());
    await raw.getByRole("checkbox", { name: "With token request" }).uncheck();
  });

  it("every token request and inquiry run is saved to history, masked", async () => {
    const runs = await storedRuns(page);
    const operations = runs.map((run) => run.operation);
    expect(operations.filter((operation) => operation === "token")).toHaveLength(1);
    // Gift: approved, declined, 500, and the timed-out run as "outcome unknown" (status 0); balance: 200, not
    // JSON, Ctrl+Enter.
    expect(operations.filter((operation) => operation === "gift_balance_inquiry")).toHaveLength(4);
    expect(runs.filter((run) => run.status === 0)).toHaveLength(1);
    expect(operations.filter((operation) => operation === "balance_inquiry")).toHaveLength(3);
    expect(operations.filter((operation) => operation === "transaction_lookup")).toHaveLength(1);
    expect(runs.find((run) => run.card?.last4 === "0001")?.card?.masked).toBe(MASKED_ACTIVE);
    expect(JSON.stringify(runs)).not.toMatch(/6006491000000\d{3}/);
  });

  it("dark mode follows the system, and the toggle overrides it across reloads", async () => {
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${server.url}/token`);
    expect(await isDark()).toBe(true);
    await page.getByRole("button", { name: "Dark theme" }).waitFor();
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(isDark).toBe(false);

    const toggle = page.getByRole("button", { name: "Dark theme" });
    await toggle.click();
    expect(await isDark()).toBe(true);
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    await page.reload();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("console.theme"))).toBe("dark");
    // "Follow system" shows only once the page has hydrated and read the stored choice: a click before that is lost.
    await page.getByRole("button", { name: "Follow system" }).waitFor();
    // Back to the system's theme: the explicit choice is dropped.
    await page.getByRole("button", { name: "Dark theme" }).click();
    expect(await isDark()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("console.theme"))).toBeNull();
  });

  it("custom credentials: the page shows that a secret is set, never the secret", async () => {
    await page.goto(`${server.url}/connect`);
    await page.getByLabel("Client ID").fill("demo-short-lived");
    await page.getByLabel("Client secret").fill(DEMO_SECRET);
    await page.getByRole("button", { name: /Save credentials/ }).click();
    await page.getByText("Saved for demo-short-lived: secret set.").waitFor();
    expect(await page.getByLabel("Client secret").inputValue()).toBe("");
    await expect.poll(() => page.getByTestId("current-client-id").textContent()).toBe("demo-short-lived");
    expect(await page.getByText("Secret set", { exact: true }).count()).toBe(1);
    expect(await page.content()).not.toContain(DEMO_SECRET);
    await page.reload();
    await page.getByText("Secret set", { exact: true }).waitFor();
    expect(await page.content()).not.toContain(DEMO_SECRET);
    await expectNoAxeViolations();

    // The credentials work: a token for the short-lived client (60 s, read:transactions only).
    await page.goto(`${server.url}/token`);
    await page.getByRole("button", { name: "Request token" }).click();
    await page.getByTestId("token-countdown").waitFor();
    expect(await page.getByTestId("scope-chip").allTextContents()).toEqual([
      expect.stringContaining("read:transactions"),
    ]);
    expect(await page.content()).not.toContain(DEMO_SECRET);
  });

  it("token: a refused token request explains the 400 from API specification §7 and what to do", async () => {
    await page.goto(`${server.url}/connect`);
    await page.getByLabel("Client ID").fill("demo-client");
    await page.getByLabel("Client secret").fill("not-the-secret");
    await page.getByRole("button", { name: /Save credentials/ }).click();
    await page.getByText("Saved for demo-client: secret set.").waitFor();
    await page.goto(`${server.url}/token`);
    await page.getByRole("button", { name: "Request token" }).click();
    const explanation = page.getByText(
      "The token request is malformed: check client_id, client_secret and grant_type.",
    );
    await explanation.waitFor();
    expect(await page.getByRole("link", { name: "Check credentials" }).count()).toBe(1);
    await expectNoAxeViolations();
  });

  it("forget session: credentials and token are gone", async () => {
    await page.goto(`${server.url}/connect`);
    await page.getByRole("button", { name: "Forget session" }).click();
    await page.getByText("No credentials yet.").waitFor();
    const header = page.getByRole("banner");
    await header.getByText("Not connected").waitFor();
    expect(await header.getByRole("link", { name: "No token" }).count()).toBe(1);
    const session = await page.evaluate(async () => (await fetch("/api/session")).json());
    expect(session).toMatchObject({ credentials: { source: "none" }, token: null });
  });

  it("fits half a laptop screen without horizontal scrolling", async () => {
    await page.setViewportSize({ width: 720, height: 900 });
    try {
      for (const route of ["/", "/connect", "/token", "/inquiry"]) {
        await page.goto(`${server.url}${route}`);
        await page.waitForLoadState("networkidle");
        expect(await overflowsHorizontally(page), route).toBe(false);
      }
      await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});

describe("console pages against configured environments (sandbox and production)", () => {
  let configured: ConsoleServer;

  beforeAll(async () => {
    // The first console's embedded sandbox stands in for a remote sandbox and production.
    const remote = `${server.url}/sandbox`;
    configured = await startConsole({
      CARD_API_AUTH_URL: remote,
      CARD_API_SANDBOX_URL: remote,
      CARD_API_PRODUCTION_URL: remote,
      // Server-held credentials: nobody types a secret in this console.
      CARD_API_CLIENT_ID: "demo-client",
      CARD_API_CLIENT_SECRET: DEMO_SECRET,
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await configured?.stop();
  });

  it("switches environment in the header; production is red and asks before a Gift Balance Inquiry", async () => {
    await page.goto(`${configured.url}/connect`);
    const switcher = page.getByRole("combobox", { name: "Environment" });
    await switcher.waitFor();
    expect(await switcher.locator("option").allTextContents()).toEqual([
      "Embedded sandbox",
      "Sandbox",
      "Production",
    ]);
    await switcher.selectOption("production");
    const banner = page.getByText(/^Production: calls reach the live service/);
    await banner.waitFor();
    const [red, green, blue] = await switcher.evaluate((element) => {
      // Any CSS colour (Tailwind uses oklch) to sRGB through a 1×1 canvas.
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 1;
      const context2d = canvas.getContext("2d")!;
      context2d.fillStyle = getComputedStyle(element).backgroundColor;
      context2d.fillRect(0, 0, 1, 1);
      return Array.from(context2d.getImageData(0, 0, 1, 1).data);
    });
    expect(red).toBeGreaterThan(150);
    expect(green).toBeLessThan(80);
    expect(blue).toBeLessThan(80);
    // The demo profile is for the embedded sandbox only; the server-held credentials apply everywhere.
    expect(await page.getByText("using them switches the environment to it").count()).toBe(1);
    expect(await page.getByText(/^Server-held credentials/).count()).toBe(1);
    expect(await page.getByTestId("current-client-id").textContent()).toBe("demo-client");
    expect(
      await page
        .getByRole("banner")
        .getByRole("link", { name: /demo-client\s*server-held/ })
        .count(),
    ).toBe(1);

    await page.goto(`${configured.url}/inquiry`);
    await page.getByRole("textbox", { name: "Location ID" }).fill("prod-store");
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
    const dialog = page.getByRole("dialog", { name: "Run a Gift Balance Inquiry in production?" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Cancel: nothing ran.
    let inquiries = 0;
    page.on("request", (request) => void (request.url().includes("/api/inquiries/") && inquiries++));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect(inquiries).toBe(0);
    expect(await page.getByText("No result yet").count()).toBe(1);

    // Confirm: it runs against the configured production address.
    await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
    await dialog.getByRole("button", { name: "Run Gift Balance Inquiry in production" }).click();
    await result().getByText("✓ Approved").waitFor();
    expect(inquiries).toBe(1);
    // No token was requested first: the run acquired one, and says so.
    expect(await result().getByRole("list", { name: "Token events" }).textContent()).toBe("Token acquired");
    expect(await result().textContent()).toContain("Production");
    const raw = page.getByRole("region", { name: "Request and response" });
    expect(await raw.textContent()).toContain(`${server.url}/sandbox/transaction/v1/gift/balance-inquiry`);

    // Balance Inquiry records nothing: no confirmation.
    await runInquiry("Balance Inquiry", ACTIVE_CARD);
    await page.getByRole("table", { name: "Purse balances" }).waitFor();
    expect(await dialog.isVisible()).toBe(false);

    // The configured sandbox: not red, no confirmation.
    await page.getByRole("combobox", { name: "Environment" }).selectOption("sandbox");
    await banner.waitFor({ state: "detached" });
    await runInquiry("Gift Balance Inquiry", ACTIVE_CARD);
    await result().getByText("✓ Approved").waitFor();
    expect(await result().textContent()).toContain("Sandbox");
    expect(await dialog.isVisible()).toBe(false);

    // The token page lists the run's token event, from history.
    await page.goto(`${configured.url}/token`);
    const events = page.getByRole("region", { name: "Token events" });
    await events.getByText("Acquired", { exact: true }).waitFor();
    expect(await events.textContent()).toContain("during Gift Balance Inquiry");
  });
});
