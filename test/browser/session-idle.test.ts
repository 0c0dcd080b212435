/**
 * A support agent's session ends after SESSION_IDLE_SECONDS=5 without a call: the page hides the balances and the
 * user, says it was the idle timeout, offers Sign in again back to the same page, and keeps the typed card; the
 * server's 401 says why too. Waits are for what the agent sees, never a fixed sleep.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { newPage, signInWithOidc } from "@/test/support/pages";
import { startOidcTeamOnSandbox, type OidcTeamOnSandbox } from "@/test/support/team-console";
import { axeViolations, pressEnterToSubmit } from "./console-support";

let team: OidcTeamOnSandbox;
let browser: Browser;
let url: string;

beforeAll(async () => {
  team = await startOidcTeamOnSandbox({
    ROLE_GROUPS: "support:support-desk",
    SESSION_IDLE_SECONDS: "5",
  });
  url = team.url;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await team?.stop();
});

it("hides what the session showed, says idle timeout, offers Sign in again and keeps the typed card", async () => {
  const { context, page } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  await signInWithOidc(page, url, "/support", "sam");
  expect(page.url()).toBe(`${url}/support`);

  const box = page.getByLabel("Card number", { exact: true });
  await box.fill("6006491000000001");
  await pressEnterToSubmit(box);
  const result = page.getByRole("region", { name: "Lookup result" });
  await result.getByText("•••• 0001").waitFor({ timeout: 60_000 });
  await box.fill("6006491000000019");

  // No call for 5 s: the page says so by itself.
  const ended = page.getByRole("heading", { name: "Your session has ended" });
  await ended.waitFor({ timeout: 30_000 });
  expect(await page.getByRole("region", { name: "Your session has ended" }).innerText()).toContain(
    "idle timeout",
  );
  expect(await result.isVisible()).toBe(false);
  expect(await page.getByText("Sam Support").isVisible()).toBe(false);
  expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(false);
  const again = page.getByRole("link", { name: "Sign in again" });
  expect(await again.getAttribute("href")).toBe(
    `/api/auth/login?return_to=${encodeURIComponent("/support")}`,
  );
  // What was typed is still in the (hidden) box.
  expect(await box.inputValue()).toBe("6006491000000019");
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath("session-idle-1440") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath("session-idle-390") });

  // The server says why as well.
  const refused = await page.evaluate(async () => {
    const response = await fetch("/api/support/lookups", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ card_number: "6006491000000001" }),
    });
    return { status: response.status, body: (await response.json()) as { error: Record<string, unknown> } };
  });
  expect(refused.status).toBe(401);
  expect(refused.body.error).toMatchObject({ code: "not_signed_in", details: { session_end: "idle" } });
  await context.close();
}, 180_000);
