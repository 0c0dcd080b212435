/**
 * Token renewal as a user sees it (API specification §5.8): the sandbox revokes every token (its test hook), the next
 * inquiry meets a 401, and the console renews the token once and retries once with the same Request Id. The
 * inquiry result and the token inspector both say so, and the token's fingerprint changes.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@/test/support/console-server";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { revokeSandboxTokens, sandboxStats as sandboxStatsOf } from "@/test/support/sandbox-hooks";
import { axeViolations } from "./console-support";

let server: ConsoleServer;
let page: Page;
let session: ConsolePage;

const sandboxStats = () => sandboxStatsOf(server.url);

describe("token renewal after a 401", () => {
  beforeAll(async () => {
    session = await openConsolePage({
      env: { SANDBOX_TEST_HOOKS: "on" },
      context: { viewport: { width: 1280, height: 900 } },
      demo: true,
    });
    ({ server, page } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("renews once, retries once with the same Request Id, and shows it on the inquiry and token pages", async () => {
    await page.goto(`${server.url}/token`);
    await page.getByRole("button", { name: "Request token" }).click();
    await page.getByTestId("token-countdown").waitFor();
    const fingerprint = page.getByRole("region", { name: "Access token" }).locator("code");
    const before = (await fingerprint.textContent())?.trim();
    expect(before).toMatch(/^[0-9a-f]{12}$/);

    const revoked = await revokeSandboxTokens(server.url);
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
