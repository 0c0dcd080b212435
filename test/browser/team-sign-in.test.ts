/**
 * A team console in Chromium: AUTH_MODE=oidc against the in-process OpenID provider, a production
 * environment on a standalone sandbox. A visitor meets the sign-in screen; an engineer signs in through the
 * provider's own form, sees the pages their role allows and is refused a Gift Balance Inquiry in production;
 * signing out ends the session for a copy of the old cookie too; a user without a role sees only that; an admin
 * finds every earlier step in /audit and the hash chain intact. Screenshots of each screen are kept.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import type { TestProvider } from "@/test/support/oidc-provider";
import { signInAtTestProvider, signOutThroughProvider } from "@/test/support/pages";
import { startOidcTeamOnSandbox, type OidcTeamOnSandbox } from "@/test/support/team-console";
import { axeViolations } from "./console-support";

const CARD = "6006491000000001";
const TEAM_REQUEST_ID = "team-run-request-0001";
/** The page link of the engineer's gift run, opened later by an admin. */
let teamRunLink = "";
const ROLE_GROUPS = "admin:console-admins,tester:certification,engineer:developers,support:support-desk";

let team: OidcTeamOnSandbox;
let provider: TestProvider;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let url: string;

/** The engineer's cookies while signed in, replayed after the sign-out. */
let engineerCookies = "";

beforeAll(async () => {
  team = await startOidcTeamOnSandbox({
    OIDC_DISPLAY_NAME: "Example SSO",
    ROLE_GROUPS,
    // Production is a standalone sandbox on loopback: lib/server/config accepts loopback http for it.
  });
  ({ url, provider } = team);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await team?.stop();
});

/** At the provider's own form: user name, password, "Sign in"; back at the console afterwards. */
const signInAtProvider = (name: string) => signInAtTestProvider(page, name, url);

/** "Sign out", through the provider's sign-out (confirmed there when it asks), to /signed-out. */
async function signOut() {
  await signOutThroughProvider(page, url, provider.issuer);
  await expect(page.getByRole("heading", { name: "You are signed out" }).isVisible()).resolves.toBe(true);
}

async function shot(name: string, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
}

async function apiStatus(method: string, route: string, body?: unknown) {
  return page.evaluate(
    async ({ method, route, body }) => {
      const response = await fetch(route, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
    },
    { method, route, body },
  );
}

describe("a team console with sign-in (AUTH_MODE=oidc)", () => {
  it("shows a signed-out visitor the sign-in screen instead of any page", async () => {
    await page.goto(`${url}/inquiry`);
    await page.getByRole("heading", { name: "Sign in to the Card Services Console" }).waitFor();
    // OIDC_DISPLAY_NAME names the provider, not its host and port.
    const signIn = page.getByRole("link", { name: "Sign in with Example SSO" });
    expect(await signIn.getAttribute("href")).toBe("/api/auth/login?return_to=%2Finquiry");
    // Nothing of the console: no navigation, no card field.
    expect(await page.getByRole("navigation", { name: "Console" }).count()).toBe(0);
    expect(await page.getByLabel(/card number/i).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot("team-sign-in-1440", 1440);
    await shot("team-sign-in-390", 390);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("signs an engineer in through the provider and shows what the role allows", async () => {
    await page.getByRole("link", { name: /^Sign in with / }).click();
    await signInAtProvider("eve");
    expect(new URL(page.url()).pathname).toBe("/inquiry");
    const user = page.getByTestId("signed-in-user");
    await user.getByText("Eve Engineer").waitFor();
    expect(await user.innerText()).toContain("engineer");
    const nav = page.getByRole("navigation", { name: "Console" });
    for (const label of ["Connect", "Token", "Inquiry", "Compare", "History"]) {
      expect(await nav.getByRole("link", { name: label, exact: true }).count()).toBe(1);
    }
    expect(await nav.getByRole("link", { name: "Audit log" }).count()).toBe(0);
    await shot("team-header-signed-in", 1440);
    engineerCookies = (await context.cookies(url)).map(({ name, value }) => `${name}=${value}`).join("; ");
    expect(engineerCookies).not.toBe("");
  });

  it("offers no Gift Balance Inquiry in production, runs Balance Inquiry there, and the server refuses the gift", async () => {
    await page.getByLabel("Environment").selectOption("production");
    await page.getByTestId("operation-not-offered").waitFor();
    expect(await page.getByTestId("operation-not-offered").innerText()).toContain("Gift Balance Inquiry");
    expect(await page.getByRole("radio", { name: /Gift Balance Inquiry/ }).count()).toBe(0);
    await page
      .getByLabel(/card number/i)
      .first()
      .fill(CARD);
    await page.getByLabel("Location ID").fill("store-7");
    await page.getByRole("button", { name: /^Run Balance Inquiry/ }).click();
    await page.getByText("Loyalty rewards").first().waitFor();

    const refused = await apiStatus("POST", "/api/inquiries/gift-balance", {
      card_number: CARD,
      location_id: "store-7",
      environment: "production",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe("forbidden_by_role");
  });

  it("keeps the engineer's runs on the server: Team runs finds one by Request Id and opens it by link", async () => {
    // A Gift Balance Inquiry on the embedded sandbox, with a Request Id to search for.
    expect((await apiStatus("PUT", "/api/session/environment", { environment: "embedded" })).status).toBe(
      200,
    );
    const gift = await apiStatus("POST", "/api/inquiries/gift-balance", {
      card_number: CARD,
      location_id: "store-7",
      request_id: TEAM_REQUEST_ID,
      environment: "embedded",
    });
    expect(gift.status).toBe(200);
    await page.goto(`${url}/history`);
    const team = page.getByRole("region", { name: "Team runs" });
    const list = team.getByTestId("team-runs");
    await expect.poll(() => list.locator("li").count(), { timeout: 20_000 }).toBe(2);
    expect(await list.innerText()).toContain("Eve Engineer");
    expect(await list.innerText()).not.toContain(CARD);
    expect(await list.innerText()).toContain("600649******0001");
    await team.getByLabel("Request Id").fill(TEAM_REQUEST_ID);
    await team.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => list.locator("li").count()).toBe(1);
    await list.getByRole("link", { name: /^Open the Gift Balance Inquiry run by Eve Engineer/ }).click();
    await page.waitForURL((address) => address.searchParams.has("team_run"));
    teamRunLink = page.url();
    const detail = team.getByTestId("team-run");
    await detail.getByText(TEAM_REQUEST_ID).first().waitFor();
    expect(await detail.innerText()).not.toContain(CARD);
    expect(await axeViolations(page)).toEqual([]);
    await shot("team-runs-1440", 1440);
    await shot("team-runs-390", 390);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("signs out, and a copy of the old cookie no longer works", async () => {
    await page.goto(`${url}/inquiry`);
    await signOut();
    const replayed = await fetch(`${url}/api/session`, { headers: { Cookie: engineerCookies } });
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe("not_signed_in");
    expect(await axeViolations(page)).toEqual([]);
  });

  it("shows a user without a role that they have none, and nothing else", async () => {
    await page.getByRole("link", { name: "Sign in again" }).click();
    await signInAtProvider("nobody");
    await page.getByRole("heading", { name: "You have no role in this console" }).waitFor();
    expect(await page.getByText("Nobody", { exact: true }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Console" }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot("team-no-role", 1440);
    await page.goto(`${url}/audit`);
    await page.getByRole("heading", { name: "You have no role in this console" }).waitFor();
    await signOut();
  });

  it("shows an admin every earlier step in /audit, with the chain intact", async () => {
    await page.goto(`${url}/audit`);
    await page.getByRole("link", { name: /^Sign in with / }).click();
    await signInAtProvider("alice");
    expect(new URL(page.url()).pathname).toBe("/audit");
    const table = page.getByTestId("audit-table");
    await table.getByRole("row").nth(1).waitFor();
    const text = await table.innerText();
    for (const event of ["sign_in", "sign_out", "refused", "balance_inquiry"]) expect(text).toContain(event);
    for (const user of ["eve", "nobody", "alice"]) expect(text).toContain(user);

    // The card by its full number: sent once, hashed on the server, cleared from the field.
    const card = page.getByLabel("Card", { exact: true });
    await card.fill(CARD);
    await page.getByRole("button", { name: "Search" }).click();
    await page
      .getByTestId("audit-filter-summary")
      .getByText(/card ending 0001 \(by hash\)/)
      .waitFor();
    expect(await card.inputValue()).toBe("");
    await table.getByText("600649******0001").first().waitFor();
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toContain("card=");

    await page.getByRole("button", { name: "Clear filters" }).click();
    await page
      .getByTestId("audit-filter-summary")
      .getByText(/no filter/)
      .waitFor();
    await page.getByRole("button", { name: "Verify chain" }).click();
    await page.getByText("Chain intact").waitFor();
    expect(await page.getByTestId("chain-verdict").innerText()).toMatch(/All \d+ rows are unchanged/);
    expect(await axeViolations(page)).toEqual([]);
    await shot("team-audit-1440", 1440);
    await shot("team-audit-390", 390);
    // At 390 px the entries are cards, and nothing is wider than the screen.
    await page.getByTestId("audit-card").first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("opens the engineer's shared run for an admin, and refuses team runs to support", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(teamRunLink);
    await page.getByTestId("team-run").getByText(TEAM_REQUEST_ID).first().waitFor();
    expect(await page.getByTestId("team-run").innerText()).toContain("Eve Engineer");
    await signOut();
    await page.getByRole("link", { name: "Sign in again" }).click();
    await signInAtProvider("sam");
    const refused = await apiStatus("GET", "/api/runs");
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe("forbidden_by_role");
    expect(
      (await apiStatus("GET", `/api/runs/${new URL(teamRunLink).searchParams.get("team_run")}`)).status,
    ).toBe(403);
  });
});
