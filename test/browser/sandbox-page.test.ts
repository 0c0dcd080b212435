/**
 * The sandbox page in Chromium against the production build (`next start`), and the /sandbox mount over real
 * HTTP: the home page links to it, it lists the demo clients and test cards, copy buttons copy, and a secret
 * configured in SANDBOX_DEMO_SECRET never reaches a page.
 */
import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workedExample } from "@/lib/sandbox/docs";
import { DEMO_CLIENTS, TEST_CARDS } from "@/lib/sandbox/fixtures";
import { launchBrowser } from "@/test/support/browser";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("sandbox page and mount, default configuration", () => {
  let server: ConsoleServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startConsole({ SANDBOX_DEMO_SECRET: undefined, SANDBOX_SLOW_MS: "300" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("is linked from the home page and shows the addresses, demo clients and test cards", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.locator('a[href="/sandbox"]').first().click();
    await page.waitForURL(`${server.url}/sandbox`);
    await page.getByRole("heading", { level: 1, name: "Embedded sandbox" }).waitFor();

    const clients = page.getByRole("table", { name: "Demo clients" });
    for (const client of DEMO_CLIENTS) {
      const row = clients.getByRole("row").filter({ hasText: client.clientId });
      await expect(row.count()).resolves.toBe(1);
      expect(await row.textContent()).toContain(`${client.expiresIn} s`);
      for (const scope of client.scopes) expect(await row.textContent()).toContain(scope);
    }
    const cards = page.getByRole("table", { name: "Test cards" });
    for (const card of TEST_CARDS) {
      await expect(cards.getByRole("row").filter({ hasText: card.cardNumber }).count()).resolves.toBe(1);
    }
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain(`http://localhost:${server.port}/sandbox`);
    expect(text).toContain("http://127.0.0.1:4010");
    expect(text).toContain("demo-secret");
    expect(text).toContain("Answers after 0.3 seconds.");
    expect(text).toContain("Where the specification is silent");
    await page.evaluate(() => document.documentElement.classList.add("dark"));
    await context.close();
  });

  it("points the inquiry's card field to the sandbox's test cards, whose numbers stay on that page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/connect`);
    await page.getByRole("button", { name: "Use demo credentials" }).click();
    await page.getByText("Secret set", { exact: true }).waitFor();
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("link", { name: "The sandbox's test cards" }).click();
    await page.waitForURL(`${server.url}/sandbox#sandbox-cards`);
    const cards = page.getByRole("table", { name: "Test cards" });
    for (const card of TEST_CARDS) {
      await expect(cards.getByRole("row").filter({ hasText: card.cardNumber }).count()).resolves.toBe(1);
    }
    await context.close();
  });

  it("copies the worked example, written by the Code panel's generator, and a card number", async () => {
    const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(`${server.url}/sandbox`);
    const readClipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const base = `http://localhost:${server.port}/sandbox`;

    // Located by its code block: the button's accessible name changes to "Copied" while it confirms.
    const copyExample = page
      .locator("figure", { hasText: "Token, then Gift Balance Inquiry (cURL)" })
      .getByRole("button");
    // Clicks until the button confirms: a click before hydration does nothing.
    await expect
      .poll(async () => {
        await copyExample.click();
        return copyExample.locator('[role="status"]').textContent();
      })
      .toBe("Copied");
    expect(await readClipboard()).toBe(workedExample("shell", base, "demo-secret").inquiry);

    await page.getByLabel("Language").selectOption("python");
    const python = workedExample("python", base, "demo-secret");
    const step1 = page.locator("figure", { hasText: "1. Request an access token (Python)" });
    await expect(step1.locator("code").textContent()).resolves.toBe(python.token);
    const step2 = page.locator("figure", {
      hasText: "2. Gift Balance Inquiry with ACCESS_TOKEN set (Python)",
    });
    await expect(step2.locator("code").textContent()).resolves.toBe(python.inquiry);
    // The choice is the Code panel's: remembered across a reload.
    await page.reload();
    await page.locator("figure", { hasText: "(Python)" }).first().waitFor();

    await page.getByRole("button", { name: "Copy card number 6006491000000043" }).click();
    expect(await readClipboard()).toBe("6006491000000043");
    await context.close();
  });

  it("passes the sandbox's answers through the mount unchanged", async () => {
    const base = `${server.url}/sandbox`;
    const tokenResponse = await fetch(`${base}/reporting/v1/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({
        client_id: "demo-client",
        client_secret: "demo-secret",
        grant_type: "client_credentials",
      }),
    });
    expect(tokenResponse.status).toBe(200);
    expect(tokenResponse.headers.get("cache-control")).toBe("no-store");
    const token = ((await tokenResponse.json()) as Json).data.attributes.access_token as string;

    const inquiry = (cardNumber: string, requestId: string) =>
      fetch(`${base}/transaction/v1/gift/balance-inquiry`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${token}`,
          "X-Request-Id": requestId,
        },
        body: JSON.stringify({
          data: {
            entry_mode: "keyed",
            card_number: cardNumber,
            pin_mode: "none",
            originator: { location_id: "s1" },
          },
        }),
      });
    const requestId = `browser-${randomBytes(6).toString("hex")}`;
    const approved = await inquiry("6006491000000001", requestId);
    expect(approved.status).toBe(201);
    expect(((await approved.json()) as Json).data).toMatchObject({
      response_status: "approved",
      balance: "25.00",
    });
    expect((await inquiry("6006491000000001", requestId)).status).toBe(409);

    const limited = await inquiry("6006491000000068", `${requestId}-429`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    const notJson = await inquiry("6006491000000050", `${requestId}-html`);
    expect(notJson.status).toBe(201);
    expect(notJson.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await notJson.text()).toContain("upstream maintenance");
    expect((await inquiry("6006491000000043", `${requestId}-slow`)).status).toBe(201);

    const lookup = await fetch(`${base}/transaction/v1/transactions/request-id/${requestId}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(lookup.status).toBe(200);

    const unauthorized = await fetch(`${base}/transaction/v1/balance-inquiry`, { method: "POST" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
    const wrongMethod = await fetch(`${base}/reporting/v1/auth/token`, { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    const missing = await fetch(`${base}/no/such/path`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).errors[0].code).toBe("not_found");
  });
});

describe("sandbox page with SANDBOX_DEMO_SECRET set", () => {
  const sentinel = `sentinel-${randomBytes(12).toString("hex")}`;
  let server: ConsoleServer;

  beforeAll(async () => {
    server = await startConsole({ SANDBOX_DEMO_SECRET: sentinel });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("never shows the secret, and names the variable instead", async () => {
    for (const path of ["/", "/sandbox"]) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      expect(html).not.toContain(sentinel);
    }
    const html = await (await fetch(`${server.url}/sandbox`)).text();
    expect(html).toContain("SANDBOX_DEMO_SECRET");
    expect(html).not.toContain('"client_secret":"demo-secret"');
  });

  it("uses the configured secret for the demo clients", async () => {
    const token = (secret: string) =>
      fetch(`${server.url}/sandbox/reporting/v1/auth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_id: "demo-client",
          client_secret: secret,
          grant_type: "client_credentials",
        }),
      });
    expect((await token("demo-secret")).status).toBe(400);
    const accepted = await token(sentinel);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).not.toContain(sentinel);
    expect(server.logs()).not.toContain(sentinel);
  });
});
