/**
 * A console whose public origin (PUBLIC_URL) is not the default `http://localhost:<port>`: every address it shows
 * or copies names that origin (any other Host gets 421), and the copied cURL runs as copied against it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "@/test/support/browser";
import { freePort, startConsole, type ConsoleServer } from "@/test/support/console-server";

const run = promisify(execFile);
const ACTIVE_CARD = "6006491000000001";

describe("addresses on a console with PUBLIC_URL", () => {
  let server: ConsoleServer;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = await startConsole({ PORT: String(port), PUBLIC_URL: origin, HOSTNAME: "127.0.0.1" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("the /sandbox page names the public origin", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/sandbox`);
    await page.getByRole("heading", { level: 1, name: "Embedded sandbox" }).waitFor();
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain(`${origin}/sandbox`);
    const addresses = text.match(/https?:\/\/[a-z0-9.-]+(?::\d+)?/g) ?? [];
    expect(addresses.length).toBeGreaterThan(0);
    // The standalone sandbox (npm run sandbox) is its own server; every other address is this console's.
    const others = addresses.filter((address) => address !== origin && !address.endsWith(":4010"));
    expect(others).toEqual([]);
    await context.close();
  });

  it("the exchange record and the copied cURL name it, and the copy runs", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    const page = await context.newPage();
    await page.goto(`${origin}/connect`);
    await page.getByRole("button", { name: "Use demo credentials" }).click();
    await page.getByText("Secret set", { exact: true }).waitFor();
    await page.goto(`${origin}/inquiry`);
    await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    const response = page.waitForResponse((candidate) =>
      candidate.url().endsWith("/api/inquiries/gift-balance"),
    );
    await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
    const record = (await (await response).json()) as { request: { url: string } };
    expect(record.request.url).toBe(`${origin}/sandbox/transaction/v1/gift/balance-inquiry`);

    const raw = page.getByRole("region", { name: "Request and response" });
    await raw.getByText("Code", { exact: true }).click();
    await raw.getByRole("checkbox", { name: "With token request" }).check();
    await raw.getByRole("button", { name: "Copy as cURL" }).click();
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await expect.poll(clipboard).toContain("/reporting/v1/auth/token");
    const copied = await clipboard();
    expect(copied).toContain(`${origin}/sandbox/reporting/v1/auth/token`);
    expect(copied).toContain(`${origin}/sandbox/transaction/v1/gift/balance-inquiry`);
    expect(copied).not.toContain("localhost");

    const { stdout } = await run("bash", ["-c", copied], {
      env: {
        ...process.env,
        CLIENT_ID: "demo-client",
        CLIENT_SECRET: "demo-secret",
        CARD_NUMBER: ACTIVE_CARD,
      },
    });
    expect(stdout).toMatch(/^HTTP\/1\.1 201 /);
    expect(stdout).toContain('"response_status":"approved"');
    await context.close();
  });
});
