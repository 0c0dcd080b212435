/**
 * Token renewal as a user sees it (spec §5.8): the sandbox revokes every token (its test hook), the next
 * inquiry meets a 401, and the console renews the token once and retries once with the same Request Id. The
 * inquiry result and the token inspector both say so, and the token's fingerprint changes.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "@/test/support/browser";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { axeViolations } from "./console-support";

let server: ConsoleServer;
let browser: Browser;
let page: Page;

async function sandboxStats(): Promise<{ token_requests: number; transactions: number }> {
  const response = await fetch(`${server.url}/sandbox/__sandbox/stats`);
  return (await response.json()) as { token_requests: number; transactions: number };
}

describe("token renewal after a 401", () => {
  beforeAll(async () => {
    server = await startConsole({ SANDBOX_TEST_HOOKS: "on" });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${server.url}/connect`);
    await page.getByRole("button", { name: "Use demo credentials" }).click();
    await page.getByText("Secret set", { exact: true }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("renews once, retries once with the same Request Id, and shows it on the inquiry and token pages", async () => {
    await page.goto(`${server.url}/token`);
    await page.getByRole("button", { name: "Request token" }).click();
    await page.getByTestId("token-countdown").waitFor();
    const fingerprint = page.getByRole("region", { name: "Access token" }).locator("code");
    const before = (await fingerprint.textContent())?.trim();
    expect(before).toMatch(/^[0-9a-f]{12}$/);

    const revoked = await fetch(`${server.url}/sandbox/__sandbox/revoke-tokens`, { method: "POST" });
    expect(revoked.status).toBe(204);
    const statsBefore = await sandboxStats();

    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill("6006491000000001");
    await page.getByRole("textbox", { name: "Location ID" }).fill("store-7");
    const answer = page.waitForResponse((candidate) =>
      candidate.url().endsWith("/api/inquiries/gift-balance"),
    );
    await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
    const record = (await (await answer).json()) as {
      request_id: string;
      request: { headers: Record<string, string> };
      response: { status: number };
      token_events: { type: string }[];
    };

    // One renewal, one retry that succeeded, under the Request Id the request carries.
    expect(record.response.status).toBe(201);
    expect(record.token_events.map((event) => event.type)).toEqual(["renewed_after_401"]);
    expect(record.request.headers["X-Request-Id"] ?? record.request.headers["x-request-id"]).toBe(
      record.request_id,
    );
    const statsAfter = await sandboxStats();
    expect(statsAfter.token_requests - statsBefore.token_requests).toBe(1);
    expect(statsAfter.transactions - statsBefore.transactions).toBe(1);

    const result = page.getByRole("region", { name: "Gift Balance Inquiry" });
    await result.getByText("✓ Approved").waitFor();
    await result.getByText("Token renewed after a 401").waitFor();

    await page.goto(`${server.url}/token`);
    const events = page.getByRole("region", { name: "Token events" });
    await events.getByText("Renewed after a 401").waitFor();
    await expect.poll(async () => (await fingerprint.textContent())?.trim()).not.toBe(before);
    expect((await axeViolations(page)).join("\n")).toBe("");
  });
});
