/**
 * What the console must survive on the browser side, in Chromium against a real console: duplicate submissions,
 * lost outcomes after no answer, the environment each run names, the remembered operation, stale results,
 * copy as code that runs as copied, the not-connected path, and the shell's smaller defects.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { launchBrowser } from "@/test/support/browser";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { connectWithDemoCredentials } from "@/test/support/pages";
import { axeViolations, storedExchanges, storedRuns } from "./console-support";
import { fileTempDir } from "@/test/support/temp-dirs";

const run = promisify(execFile);

const ACTIVE_CARD = "6006491000000001";
const SLOW_CARD = "6006491000000043";
const NOT_JSON_CARD = "6006491000000050";
const DEMO_SECRET = "safety-demo-secret";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let remote: SandboxServer;
let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  // A standalone sandbox stands in for the configured sandbox and production upstreams.
  remote = await startSandboxServer({ port: 0, sandbox: createSandbox({ demoSecret: DEMO_SECRET }) });
  server = await startConsole({
    SANDBOX_DEMO_SECRET: DEMO_SECRET,
    CARD_API_TIMEOUT_MS: "1000",
    CARD_API_AUTH_URL: remote.url,
    CARD_API_SANDBOX_URL: remote.url,
    CARD_API_PRODUCTION_URL: remote.url,
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await remote?.close();
});

async function newPage(width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    colorScheme: "light",
    reducedMotion: "reduce",
  });
  return { context, page: await context.newPage() };
}

/** Bodies of the inquiry calls the page makes, as sent. */
function recordInquiries(page: Page): Array<{ url: string; body: Record<string, unknown> }> {
  const seen: Array<{ url: string; body: Record<string, unknown> }> = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && request.url().includes("/api/inquiries/")) {
      seen.push({
        url: request.url(),
        body: JSON.parse(request.postData() ?? "{}") as Record<string, unknown>,
      });
    }
  });
  return seen;
}

async function api(page: Page, method: string, route: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, route, body }) =>
      (
        await fetch(route, {
          method,
          headers: { "Content-Type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
      ).status,
    { method, route, body },
  );
}

async function runGift(page: Page, card: string): Promise<void> {
  await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
  await page.getByRole("textbox", { name: "Card number" }).fill(card);
  await page.getByRole("textbox", { name: "Location ID" }).fill("store-1");
  await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
}

const resultRegion = (page: Page) =>
  page.getByRole("region", { name: /^(Gift Balance Inquiry|Balance Inquiry)$/ });

describe("one submission, one transaction", () => {
  it("five clicks in one frame record one Gift Balance Inquiry, under the browser's Request Id", async () => {
    const { context, page } = await newPage();
    await connectWithDemoCredentials(page, server.url);
    await page.goto(`${server.url}/inquiry`);
    const sent = recordInquiries(page);
    await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await page.getByRole("textbox", { name: "Location ID" }).fill("store-1");
    await page.evaluate(() => {
      const button = [...document.querySelectorAll("button")].find((candidate) =>
        candidate.textContent?.includes("Run Gift Balance Inquiry"),
      )!;
      for (let click = 0; click < 5; click++) button.click();
    });
    await resultRegion(page).getByText("✓ Approved").waitFor();
    expect(sent).toHaveLength(1);
    const requestId = String(sent[0]!.body.request_id);
    expect(requestId).toMatch(UUID);
    expect(await resultRegion(page).innerText()).toContain(requestId);
    const gifts = (await storedRuns(page)).filter((stored) => stored.operation === "gift_balance_inquiry");
    expect(gifts).toHaveLength(1);
    await context.close();
  });
});

describe("no answer, and answers that cannot be read", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await newPage());
    await connectWithDemoCredentials(page, server.url);
  });
  afterAll(async () => context?.close());

  it("a new run clears the previous result at once, so an old balance never stands under a new error", async () => {
    await page.goto(`${server.url}/inquiry`);
    await runGift(page, ACTIVE_CARD);
    await page.getByTestId("gift-balance").waitFor();
    await runGift(page, SLOW_CARD);
    await page.getByTestId("gift-balance").waitFor({ state: "detached" });
    await page.getByRole("alert").filter({ hasText: "The upstream did not answer in time" }).waitFor();
    expect(await page.getByTestId("gift-balance").count()).toBe(0);
  });

  it("after a 504 shows the Request Id, keeps an outcome-unknown run, looks it up and retries with the same id", async () => {
    await page.goto(`${server.url}/inquiry`);
    const sent = recordInquiries(page);
    const before = (await storedRuns(page)).length;
    await runGift(page, SLOW_CARD);
    const alert = page.getByTestId("api-error");
    await alert.getByText("The upstream did not answer in time").waitFor();
    const requestId = String(sent[0]!.body.request_id);
    expect(await alert.innerText()).toContain(requestId);
    expect(await alert.innerText()).toMatch(/outcome unknown/);

    const runs = await storedRuns(page);
    expect(runs).toHaveLength(before + 1);
    expect(runs.find((stored) => stored.status === 0)).toMatchObject({
      operation: "gift_balance_inquiry",
      card: { masked: "600649******0043", last4: "0043" },
    });

    await alert.getByRole("button", { name: "Look up by Request Id" }).click();
    await page.getByText(/^(Found|Not found) by Request Id$/).waitFor();

    await alert.getByRole("button", { name: "Retry with the same Request Id" }).click();
    await expect.poll(() => sent.length).toBe(2);
    expect(sent[1]!.body.request_id).toBe(requestId);
    await page.getByTestId("api-error").getByText("The upstream did not answer in time").waitFor();

    await page.goto(`${server.url}/history`);
    const row = page.locator("tr", { hasText: "600649******0043" }).first();
    await row.waitFor();
    expect(await row.innerText()).toMatch(/No answer[\s\S]*outcome unknown/);
  });

  it("keeps a free-form Gift Balance Inquiry without an answer as outcome unknown and retries it with the same Request Id", async () => {
    await page.goto(`${server.url}/inquiry`);
    const sent: Array<{ headers: Record<string, string>; body: string }> = [];
    page.on("request", (request: Request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/requests"))
        sent.push(JSON.parse(request.postData() ?? "{}") as (typeof sent)[number]);
    });
    const before = (await storedExchanges(page)).length;
    await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill(SLOW_CARD);
    await page.getByRole("button", { name: "Edit request" }).click();
    const editor = page.getByRole("form", { name: "Request editor" });
    await editor.getByRole("button", { name: "Send request" }).click();
    const alert = page.getByTestId("api-error");
    await alert.getByText("The upstream did not answer in time").waitFor();
    const requestId = sent[0]!.headers["X-Request-Id"]!;
    expect(requestId).toMatch(UUID);
    expect(await alert.innerText()).toContain(requestId);

    await expect.poll(async () => (await storedExchanges(page)).length).toBe(before + 1);
    const kept = (await storedExchanges(page)).find((exchange) => exchange.request_id === requestId);
    expect(kept).toMatchObject({
      operation: "gift_balance_inquiry",
      free_form: true,
      response: { status: 0 },
      request: {
        method: "POST",
        url: expect.stringMatching(/^http:\/\/[^/]+(\/sandbox)?\/transaction\/v1\/gift\/balance-inquiry$/),
        headers: { "X-Request-Id": requestId },
      },
    });
    expect(kept!.request.body).toBe(sent[0]!.body.replace(SLOW_CARD, "600649******0043"));

    await alert.getByRole("button", { name: "Retry with the same Request Id" }).click();
    await expect.poll(() => sent.length).toBe(2);
    expect(sent[1]).toEqual(sent[0]);
    await page.getByTestId("api-error").getByText("The upstream did not answer in time").waitFor();

    await page.goto(`${server.url}/history`);
    const row = page.locator("tr", { hasText: "600649******0043" }).first();
    await row.waitFor();
    expect(await row.innerText()).toMatch(/No answer[\s\S]*outcome unknown/);
  });

  it("a Gift Balance Inquiry 201 whose body is not JSON shows its Request Id and finds it by lookup", async () => {
    await page.goto(`${server.url}/inquiry`);
    const sent = recordInquiries(page);
    await runGift(page, NOT_JSON_CARD);
    const result = resultRegion(page);
    await result
      .getByText(/201 Created/)
      .first()
      .waitFor();
    expect(await result.innerText()).toContain(String(sent[0]!.body.request_id));
    await result.getByRole("button", { name: "Look up by Request Id" }).click();
    await result.getByText("Found by Request Id").waitFor();
  });
});

describe("the operation and the environment each run names", () => {
  it("remembers the operation across navigation and reload, on the Run button", async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
    await page.goto(`${server.url}/history`);
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("button", { name: "Run Balance Inquiry" }).waitFor();
    expect(await page.getByRole("radio", { name: /^Balance Inquiry/ }).isChecked()).toBe(true);
    await page.reload();
    await page.getByRole("button", { name: "Run Balance Inquiry" }).waitFor();
    expect(await page.getByRole("radio", { name: /^Balance Inquiry/ }).isChecked()).toBe(true);
    await context.close();
  });

  it("sends the environment the page shows with every inquiry, replay and Run both", async () => {
    const { context, page } = await newPage();
    await connectWithDemoCredentials(page, server.url);
    const sent = recordInquiries(page);
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await page.getByRole("textbox", { name: "Location ID" }).fill("store-1");
    await page.getByRole("button", { name: "Run Balance Inquiry" }).click();
    await resultRegion(page).waitFor();

    await page.goto(`${server.url}/compare`);
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await page.getByRole("button", { name: "Run both" }).click();
    await expect.poll(() => sent.length).toBe(3);
    // Both results shown: both runs are kept, so leaving the page now loses neither.
    await page.getByText(/equals balances\.gift/).waitFor();

    await page.goto(`${server.url}/history`);
    await page
      .getByRole("button", { name: /^Replay Balance Inquiry/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await dialog.getByRole("button", { name: "Replay Balance Inquiry" }).click();
    await expect.poll(() => sent.length).toBe(4);
    expect(sent.map((call) => call.body.environment)).toEqual([
      "embedded",
      "embedded",
      "embedded",
      "embedded",
    ]);
    await context.close();
  });

  it("when another tab switched the environment, nothing runs and the page says what changed", async () => {
    const { context, page } = await newPage();
    await connectWithDemoCredentials(page, server.url);
    // The server's check (docs/design.md §6) is probed with a Balance Inquiry, which records nothing.
    const probe = await api(page, "POST", "/api/inquiries/balance", {
      card_number: ACTIVE_CARD,
      location_id: "probe",
      environment: "sandbox",
    });
    expect(probe).toBe(409);
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).waitFor();
    const other = await context.newPage();
    await other.goto(`${server.url}/inquiry`);
    expect(await api(other, "PUT", "/api/session/environment", { environment: "sandbox" })).toBeLessThan(300);
    const before = (await storedRuns(page)).length;
    await runGift(page, ACTIVE_CARD);
    const alert = page.getByTestId("api-error");
    await alert.getByText("The environment changed in another tab").waitFor();
    expect(await alert.innerText()).toMatch(/Embedded[\s\S]*Sandbox/);
    expect((await storedRuns(page)).length).toBe(before);
    // The page read the session again: the header now shows the environment the other tab chose.
    await expect.poll(() => page.getByRole("banner").locator("select").first().inputValue()).toBe("sandbox");
    await context.close();
  });
});

describe("production confirmation of a replay", () => {
  it("asks before a Gift Balance Inquiry replay in production; Cancel sends nothing", async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.url}/connect`);
    expect(
      await api(page, "PUT", "/api/session/credentials", {
        client_id: "demo-client",
        client_secret: DEMO_SECRET,
      }),
    ).toBeLessThan(300);
    await page.goto(`${server.url}/inquiry`);
    await runGift(page, ACTIVE_CARD);
    await resultRegion(page).getByText("✓ Approved").waitFor();
    expect(await api(page, "PUT", "/api/session/environment", { environment: "production" })).toBeLessThan(
      300,
    );

    await page.goto(`${server.url}/history`);
    const sent = recordInquiries(page);
    await page
      .getByRole("button", { name: /^Replay Gift Balance Inquiry/ })
      .first()
      .click();
    const replay = page.getByRole("dialog");
    await replay.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await replay.getByRole("button", { name: "Replay Gift Balance Inquiry" }).click();
    const confirm = page.getByRole("dialog", { name: "Replay a Gift Balance Inquiry in production?" });
    await confirm.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "hidden" });
    expect(sent).toHaveLength(0);

    await replay.getByRole("button", { name: "Replay Gift Balance Inquiry" }).click();
    await confirm.getByRole("button", { name: "Replay in production" }).click();
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]!.body.environment).toBe("production");
    await context.close();
  });
});

describe("copy as code runs as copied", () => {
  it("runs the cURL (twice, fresh Request Ids) and the fetch with its token request against the sandbox", async () => {
    const { context, page } = await newPage();
    await connectWithDemoCredentials(page, server.url);
    await page.goto(`${server.url}/inquiry`);
    await runGift(page, ACTIVE_CARD);
    await resultRegion(page).getByText("✓ Approved").waitFor();
    await page.getByText("cURL, Python, Java, Go and more").click();
    const snippet = page.getByTestId("code-snippet");
    const curl = await snippet.innerText();
    expect(curl).not.toContain('600649******0001"');

    const token = (await (
      await fetch(`${server.url}/sandbox/reporting/v1/auth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_id: "demo-client",
          client_secret: DEMO_SECRET,
          grant_type: "client_credentials",
        }),
      })
    ).json()) as { data: { attributes: { access_token: string } } };
    const env = {
      ...process.env,
      ACCESS_TOKEN: token.data.attributes.access_token,
      CARD_NUMBER: ACTIVE_CARD,
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      const { stdout } = await run("bash", ["-c", `set -euo pipefail\n${curl}`], { env });
      expect(stdout).toMatch(/^HTTP\/1\.1 201/);
    }

    await page.getByRole("combobox", { name: "Language" }).selectOption("javascript");
    await page.getByLabel("With token request").check();
    const code = await snippet.innerText();
    expect(code).toContain("process?.env");
    const file = path.join(fileTempDir("copy-as-fetch-"), "request.mjs");
    writeFileSync(file, code);
    const { stdout } = await run(process.execPath, [file], {
      env: {
        ...process.env,
        CLIENT_ID: "demo-client",
        CLIENT_SECRET: DEMO_SECRET,
        CARD_NUMBER: ACTIVE_CARD,
        ACCESS_TOKEN: "",
      },
    });
    expect(stdout).toMatch(/^201$/m);
    expect(stdout).toContain('"approved"');
    await context.close();
  });
});

describe("not connected, focus, the sticky header, favicon and theme", () => {
  it("offers Use demo credentials in one click, then keeps focus on Run", async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.url}/inquiry`);
    await runGift(page, ACTIVE_CARD);
    const alert = page.getByTestId("api-error");
    await alert.getByText("Connect first").waitFor();
    expect(await alert.innerText()).not.toMatch(/no_credentials[\s\S]*no_credentials/);
    await alert.getByRole("button", { name: "Use demo credentials" }).click();
    await page.getByText("Connected with the demo credentials").waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toContain(
      "Run Gift Balance Inquiry",
    );
    await page.keyboard.press("Enter");
    await resultRegion(page).getByText("✓ Approved").waitFor();
    await context.close();
  });

  it("keeps focus on Use demo credentials on /connect while it works and after", async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.url}/connect`);
    const button = page.getByRole("button", { name: "Use demo credentials" });
    await button.focus();
    await page.keyboard.press("Enter");
    await page.getByText("Demo credentials saved.").waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toContain(
      "Use demo credentials",
    );
    await context.close();
  });

  it("the result heading is not under the sticky header after scrolling to it", async () => {
    const { context, page } = await newPage(390);
    await connectWithDemoCredentials(page, server.url);
    await page.goto(`${server.url}/inquiry`);
    await runGift(page, ACTIVE_CARD);
    await resultRegion(page).getByText("✓ Approved").waitFor();
    await page.evaluate(() => document.getElementById("result-heading")!.scrollIntoView());
    const header = await page.getByRole("banner").boundingBox();
    const heading = await page.locator("#result-heading").boundingBox();
    expect(heading!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
    await context.close();
  });

  it("serves /favicon.ico", async () => {
    const response = await fetch(`${server.url}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/image/);
  });

  it("the theme can go back to following the system", async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.url}/token`);
    await page.getByRole("button", { name: "Dark theme" }).click();
    expect(await page.evaluate(() => localStorage.getItem("console.theme"))).toBe("dark");
    await page.getByRole("button", { name: "Follow system" }).click();
    expect(await page.evaluate(() => localStorage.getItem("console.theme"))).toBeNull();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.classList.contains("dark")))
      .toBe(true);
    await page.getByRole("button", { name: "Follow system" }).waitFor({ state: "detached" });
    await context.close();
  });
});
