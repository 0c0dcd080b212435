/**
 * The support agent's walk in Chromium, on a team console (AUTH_MODE=oidc, the in-process OpenID provider): a
 * signed-out link keeps its query through sign-in; support's navigation, home page and refused pages follow the
 * role; a transaction is found by its Request Id as a summary (never the exchange); a CSV upload shows its name
 * and line count, never the numbers; the batch list; a cancel asks first and the counts add up; results filter
 * by outcome; the phone header is one row. Screenshots at 1440 and 390 px.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { newPage, signInAtTestProvider, signInWithOidc } from "@/test/support/pages";
import { startOidcTeamOnSandbox, type OidcTeamOnSandbox } from "@/test/support/team-console";
import { axeViolations } from "./console-support";

const CARD = "6006491000000001";
const REQUEST_ID = "walk-request-0001";
const ROLE_GROUPS = "admin:console-admins,tester:certification,engineer:developers,support:support-desk";
/** Cards the sandbox does not know (404): valid answers, quick. */
const UNKNOWN = Array.from({ length: 60 }, (_, index) => `7006491${String(index).padStart(9, "0")}`);

let team: OidcTeamOnSandbox;
let browser: Browser;
let url: string;

beforeAll(async () => {
  team = await startOidcTeamOnSandbox({
    ROLE_GROUPS,
    // A used-up budget pauses a batch until the minute ends: the batch is still running when the agent cancels.
    RATE_LIMIT_PER_MINUTE: "30",
    SUPPORT_BATCH_CONCURRENCY: "2",
  });
  url = team.url;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await team?.stop();
});

async function signedIn(name: string, path: string): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  await signInWithOidc(page, url, path, name);
  return { context, page };
}

async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: screenshotPath(`${name}-1440`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath(`${name}-390`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe("the support agent's walk", () => {
  let sam: Page;

  it("keeps a signed-out link's query through sign-in", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${url}/certification?run=abc-123`);
    const signIn = page.getByRole("link", { name: /^Sign in with / });
    await expect
      .poll(() => signIn.getAttribute("href"))
      .toBe(`/api/auth/login?return_to=${encodeURIComponent("/certification?run=abc-123")}`);
    await signIn.click();
    await signInAtTestProvider(page, "alice", url);
    expect(new URL(page.url()).search).toBe("?run=abc-123");
    // Alice (admin) records a Gift Balance Inquiry under a Request Id the agent will look up.
    const status = await page.evaluate(
      async ({ card, requestId }) =>
        (
          await fetch("/api/inquiries/gift-balance", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ card_number: card, location_id: "store-7", request_id: requestId }),
          })
        ).status,
      { card: CARD, requestId: REQUEST_ID },
    );
    expect(status).toBe(200);
    await context.close();
  }, 120_000);

  it("shows support only its pages: navigation, home, and the role view before any form", async () => {
    ({ page: sam } = await signedIn("sam", "/"));
    const nav = sam.getByRole("navigation", { name: "Console" });
    await nav.getByRole("link", { name: "Support desk" }).waitFor();
    for (const hidden of ["Connect", "Token", "Inquiry", "Certification", "Audit log"]) {
      expect(await nav.getByRole("link", { name: hidden, exact: true }).count(), hidden).toBe(0);
    }
    expect(await sam.getByRole("link", { name: /Look up a card/ }).count()).toBeGreaterThan(0);
    expect(await sam.getByText("Request a token").count()).toBe(0);
    // The home page says what support can do, not what an engineer can.
    const summary = await sam.getByTestId("support-summary").innerText();
    for (const point of [/last 4 digits/, /no raw request, response or token/, /batches/, /Request Id/]) {
      expect(summary).toMatch(point);
    }
    const refused: Record<string, string> = {
      "/certification": "Support cannot open certification runs",
      "/connect": "Support cannot open Connect",
      "/audit": "Support cannot open the audit log",
    };
    for (const path of Object.keys(refused)) {
      await sam.goto(`${url}${path}`);
      await sam.getByRole("heading", { level: 1, name: refused[path] }).waitFor();
      expect(await sam.getByRole("button", { name: /start|connect|use demo/i }).count(), path).toBe(0);
      // A way out other than the menu: back to where support's work starts.
      const way = sam.getByRole("main").getByRole("link", { name: "Go to the support desk" });
      expect(await way.getAttribute("href"), path).toBe("/support");
    }
    expect(await axeViolations(sam)).toEqual([]);
    await shots(sam, "support-walk-refused");
    await sam.getByRole("main").getByRole("link", { name: "Go to the support desk" }).click();
    await sam.waitForURL(`${url}/support`);
  }, 120_000);

  it("finds a transaction by its Request Id as a summary, last 4 only", async () => {
    await sam.goto(`${url}/support`);
    const answer = await sam.evaluate(
      async (id) =>
        (await fetch(`/api/transactions/request-id/${id}`)).json() as Promise<Record<string, unknown>>,
      REQUEST_ID,
    );
    expect(answer).toMatchObject({ outcome: "found", request_id: REQUEST_ID });
    expect(answer).not.toHaveProperty("request");
    expect(answer).not.toHaveProperty("response");
    // Hydrated: the card box takes the focus on load.
    await expect
      .poll(() =>
        sam.getByLabel("Card number", { exact: true }).evaluate((box) => box === document.activeElement),
      )
      .toBe(true);
    await sam.getByLabel("Request Id", { exact: true }).fill(REQUEST_ID);
    await sam.getByRole("button", { name: "Find" }).click();
    await sam.getByRole("region", { name: "Transaction found" }).or(sam.getByRole("alert")).first().waitFor();
    await sam.screenshot({ path: screenshotPath("support-walk-request-id-1440"), fullPage: true });
    const found = sam.getByRole("region", { name: "Transaction found" });
    await found.getByText("•••• 0001").waitFor({ timeout: 60_000 });
    expect(await found.innerText()).toMatch(/Gift balance\s+\d+\.\d\d/);
    expect(await sam.content()).not.toContain("600649");

    await sam.getByLabel("Request Id", { exact: true }).fill("never-sent-0001");
    await sam.getByRole("button", { name: "Find" }).click();
    await sam.getByText("No transaction with this Request Id").waitFor();
    expect(await axeViolations(sam)).toEqual([]);
  }, 120_000);

  it("uploads a CSV shown by name and count only, lists the batch, cancels it after asking", async () => {
    await sam.getByLabel("Or upload a CSV:").setInputFiles({
      name: "cards.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`card_number\n${UNKNOWN.join("\n")}\nnot a card\n`),
    });
    await sam.getByText(/cards\.csv: 62 lines/).waitFor();
    expect(await sam.getByLabel(/Card numbers \(one per line/).inputValue()).toBe("");
    expect(await sam.content()).not.toContain(UNKNOWN[0]);
    await shots(sam, "support-walk-desk");

    await sam.getByRole("button", { name: "Start batch" }).click();
    await sam.waitForURL(/\/support\/batches\/[0-9a-f-]{36}$/);
    const counts = sam.getByRole("definition");
    // The per-minute budget runs out part-way: the batch waits, still running.
    await sam.getByRole("button", { name: "Cancel batch" }).click();
    const dialog = sam.getByRole("dialog", { name: "Cancel this batch?" });
    await dialog.waitFor();
    expect(await axeViolations(sam)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel the batch" }).click();
    await sam.getByText("cancelled", { exact: true }).first().waitFor();
    const numbers = async () => {
      const texts = await counts.allInnerTexts();
      return texts.slice(0, 5).map(Number);
    };
    // Found, not found, failed, cancelled, in flight: they add up to the 60 cards, until nothing is in flight.
    await expect.poll(async () => (await numbers())[4], { timeout: 30_000 }).toBe(0);
    const [found, notFound, failed, cancelled] = await numbers();
    expect(found! + notFound! + failed! + cancelled!).toBe(60);
    expect(cancelled).toBeGreaterThan(0);

    await sam.getByLabel("Show", { exact: true }).selectOption("cancelled");
    await sam.getByRole("cell", { name: "Cancelled (not run)" }).first().waitFor();
    expect(await sam.getByRole("cell", { name: "Not found" }).count()).toBe(0);
    await shots(sam, "support-walk-batch");

    await sam.getByRole("link", { name: "Back to the support desk" }).click();
    const list = sam.getByRole("table", { name: "Your batches" });
    await list.getByText("cancelled").waitFor();
    expect(await axeViolations(sam)).toEqual([]);
  }, 180_000);

  it("on a phone, the header is one opaque row and the navigation opens from Menu", async () => {
    await sam.setViewportSize({ width: 390, height: 844 });
    await sam.goto(`${url}/support`);
    await expect
      .poll(() =>
        sam.getByLabel("Card number", { exact: true }).evaluate((box) => box === document.activeElement),
      )
      .toBe(true);
    const menu = sam.getByRole("button", { name: "Menu" });
    await menu.waitFor();
    const header = sam.locator("header").first();
    expect((await header.boundingBox())!.height).toBeLessThan(70);
    expect(await sam.getByRole("navigation", { name: "Console" }).isVisible()).toBe(false);
    await menu.click();
    await sam
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: "Support desk" })
      .waitFor();
    const background = await header.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).toMatch(/^rgb\(/);
    expect(await axeViolations(sam)).toEqual([]);
    await sam.screenshot({ path: screenshotPath("support-walk-menu-390") });
  }, 60_000);

  it("lets an admin see the agent's session and end it; the agent's page says an administrator ended it", async () => {
    const { page: alice, context } = await signedIn("alice", "/admin/sessions");
    await alice.getByRole("heading", { name: "Active sessions" }).waitFor();
    const nav = alice.getByRole("navigation", { name: "Console" });
    expect(await nav.getByRole("link", { name: "Sessions" }).count()).toBe(1);
    const row = alice.getByRole("row").filter({ hasText: "sam" });
    await row.first().waitFor();
    // From where: the address the console saw the agent's browser at (loopback here).
    expect(await row.first().innerText()).toContain("127.0.0.1");
    expect(await axeViolations(alice)).toEqual([]);
    await shots(alice, "admin-sessions");
    await row.first().getByRole("button", { name: "End all of sam's" }).click();
    await alice
      .getByRole("dialog", { name: "End every session of sam?" })
      .getByRole("button", { name: "End" })
      .click();
    await alice.getByText("1 session ended.").waitFor();
    await sam.setViewportSize({ width: 1440, height: 900 });
    await sam.getByLabel("Request Id", { exact: true }).fill(REQUEST_ID);
    await sam.getByRole("button", { name: "Find" }).click();
    const ended = sam.getByRole("region", { name: "Your session has ended" });
    await ended.waitFor();
    expect(await ended.innerText()).toContain("An administrator ended it");
    // Signed out now, and the list is the admin's only: the server refuses anyone else.
    expect(await sam.evaluate(async () => (await fetch("/api/admin/sessions")).status)).toBe(401);

    // The audit log: a shared address opens with its filters; the pickers offer what the log holds.
    await alice.goto(`${url}/audit?event=session_end`);
    await alice.getByTestId("audit-filter-summary").getByText("event session_end").waitFor();
    expect(await alice.getByLabel("Event", { exact: true }).inputValue()).toBe("session_end");
    const userPicker = alice.getByRole("combobox", { name: "User", exact: true });
    await userPicker.fill("ali");
    await alice.getByRole("option", { name: "alice", exact: true }).click();
    expect(await userPicker.inputValue()).toBe("alice");
    await alice.getByRole("button", { name: "Search" }).click();
    await alice.waitForURL(/\/audit\?user=alice&event=session_end$/);
    await alice.getByTestId("audit-table").getByText("revoked").first().waitFor();
    expect(await axeViolations(alice)).toEqual([]);
    await shots(alice, "audit-pickers");
    await context.close();
  }, 120_000);
});
