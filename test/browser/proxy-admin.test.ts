/**
 * A team console behind a reverse proxy (AUTH_MODE=proxy; each browser context sends the proxy's headers) in
 * Chromium: the Sessions page says what ending does in this mode; an admin ends a support agent's session and
 * the agent's open page says so and forgets what it kept for them, then Continue starts a fresh session; a
 * suspension shows on the agent's page and every reload until it is lifted. The audit page's User filter offers
 * a user who is in none of the rows loaded. Screenshots of both pages.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import type { ConsoleServer } from "@/test/support/console-server";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";
import { axeViolations, pressEnterToSubmit } from "./console-support";

const SECRET = "proxy-shared-secret-for-the-browser";
const identity = proxyIdentity(SECRET);
const ADMIN = identity("ada", "console-admins");
const AGENT = identity("tess", "support-desk");

let sandbox: SandboxServer;
let server: ConsoleServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0 });
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "admin:console-admins,support:support-desk",
    env: {
      CARD_API_AUTH_URL: sandbox.url,
      CARD_API_PRODUCTION_URL: sandbox.url,
      CARD_API_CLIENT_ID: "demo-client",
      CARD_API_CLIENT_SECRET: "demo-secret",
      AUDIT_HMAC_KEY: "browser-test-audit-hmac-key-of-32-characters",
    },
  });
  url = server.url;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sandbox?.close();
});

async function as(
  headers: Record<string, string>,
  path: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    extraHTTPHeaders: headers,
  });
  const page = await context.newPage();
  await page.goto(`${url}${path}`);
  return { context, page };
}

async function lookUp(page: Page, card: string) {
  const box = page.getByLabel("Card number", { exact: true });
  await box.fill(card);
  await pressEnterToSubmit(box);
}

/** What this browser keeps for the page's user: local names scoped to them, and the tab's session storage. */
function keptState(page: Page) {
  return page.evaluate(() => ({
    local: Object.keys(window.localStorage).filter((name) => name.includes("@")),
    session: window.sessionStorage.length,
  }));
}

describe("behind a proxy", () => {
  it("an ended session is told on the open page, which forgets the user's state; Continue starts afresh", async () => {
    const agent = await as(AGENT, "/support");
    await lookUp(agent.page, "6006491000000001");
    const result = agent.page.getByRole("region", { name: "Lookup result" });
    await result.getByText("•••• 0001").waitFor({ timeout: 60_000 });
    const key = await agent.page.evaluate(
      async () => (await (await fetch("/api/me")).json()).user.key as string,
    );
    await agent.page.evaluate(
      (scoped) => window.localStorage.setItem(`console.location_id@${scoped}`, "store-9"),
      key,
    );
    expect((await keptState(agent.page)).local).not.toEqual([]);

    const admin = await as(ADMIN, "/admin/sessions");
    await admin.page
      .getByText("the proxy signs them back in on their next request. To keep them out, suspend.")
      .first()
      .waitFor();
    await admin.page.getByRole("button", { name: "End all of tess's" }).click();
    await admin.page
      .getByRole("dialog", { name: "End every session of tess?" })
      .getByRole("button", { name: "End" })
      .click();
    await admin.page.getByText("1 session ended.").waitFor();

    await lookUp(agent.page, "6006491000000019");
    const ended = agent.page.getByRole("region", { name: "Your session has ended" });
    await ended.waitFor();
    expect(await ended.innerText()).toContain("An administrator ended it");
    expect(await result.isVisible()).toBe(false);
    await expect.poll(() => keptState(agent.page)).toEqual({ local: [], session: 0 });
    await agent.page.screenshot({ path: screenshotPath("proxy-session-ended-1440"), fullPage: true });

    await agent.page.getByRole("button", { name: "Continue" }).click();
    await lookUp(agent.page, "6006491000000001");
    await agent.page
      .getByRole("region", { name: "Lookup result" })
      .getByText("•••• 0001")
      .waitFor({ timeout: 60_000 });
    expect(await ended.isVisible()).toBe(false);
    await agent.context.close();
    await admin.context.close();
  }, 120_000);

  it("a suspension shows on the user's page and on every reload until an admin lifts it", async () => {
    const agent = await as(AGENT, "/support");
    await lookUp(agent.page, "6006491000000001");
    await agent.page
      .getByRole("region", { name: "Lookup result" })
      .getByText("•••• 0001")
      .waitFor({ timeout: 60_000 });

    const admin = await as(ADMIN, "/admin/sessions");
    const suspend = admin.page.getByRole("button", { name: "Suspend tess" }).first();
    await suspend.waitFor();
    await admin.page.screenshot({ path: screenshotPath("admin-sessions-proxy-list-1440"), fullPage: true });
    await suspend.click();
    const dialog = admin.page.getByRole("dialog", { name: "Suspend tess?" });
    await dialog.getByLabel("For").selectOption({ label: "8 hours" });
    await dialog.getByLabel("Reason or ticket").fill("TICKET-42");
    await dialog.getByRole("button", { name: "Suspend" }).click();
    await admin.page.getByRole("button", { name: "Lift tess's suspension" }).waitFor();
    expect(await axeViolations(admin.page)).toEqual([]);
    await admin.page.screenshot({ path: screenshotPath("admin-sessions-proxy-1440"), fullPage: true });

    await lookUp(agent.page, "6006491000000019");
    const ended = agent.page.getByRole("region", { name: "Your session has ended" });
    await ended.waitFor();
    expect(await ended.innerText()).toContain("suspended your access");
    await agent.page.reload();
    await agent.page.getByRole("heading", { name: "Your access is suspended" }).waitFor();

    await admin.page.getByRole("button", { name: "Lift tess's suspension" }).click();
    await admin.page.getByText("tess's suspension is lifted.").waitFor();
    await agent.page.reload();
    await agent.page.getByLabel("Card number", { exact: true }).waitFor();
    await agent.context.close();
    await admin.context.close();
  }, 120_000);

  it("the audit page's User filter offers a user who is in none of the rows loaded", async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${url}/api/session`, { headers }).then((response) => response.status);
    // A user without a role is refused (an audit row for the first of each user, route and minute): one early,
    // then more than a page of others after.
    expect(await call(identity("early-bird", "nobody"))).toBe(403);
    for (let index = 0; index < 60; index += 1) {
      expect(await call(identity(`filler-${index}`, "nobody"))).toBe(403);
    }

    const admin = await as(ADMIN, "/audit");
    const table = admin.page.getByTestId("audit-table");
    await table.getByText("filler").first().waitFor();
    expect(await table.getByText("early-bird").count()).toBe(0);
    const picker = admin.page.getByRole("combobox", { name: "User", exact: true });
    await picker.fill("EARLY");
    const option = admin.page.getByRole("option", { name: "early-bird", exact: true });
    await option.waitFor();
    await admin.page.screenshot({ path: screenshotPath("audit-user-filter-1440"), fullPage: true });
    await option.click();
    await admin.page.getByRole("button", { name: "Search" }).click();
    await admin.page.waitForURL(/\/audit\?user=early-bird$/);
    await table.getByText("early-bird").first().waitFor();
    await admin.context.close();
  }, 120_000);
});
