/**
 * One browser, several people (a support desk PC), in Chromium against the in-process OpenID provider: what the
 * console keeps in the browser belongs to the signed-in user. Sam's ticket and recent lookups are gone when Alice
 * signs in after him in the same tab, and her lookup is not audited under his ticket; Eve's history and Location
 * ID do not show for Tess. Behind a reverse proxy that switches users without a sign-out (AUTH_MODE=proxy), the
 * page reloads as the new user before anything is sent with the previous user's ticket.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import type { ConsoleServer } from "@/test/support/console-server";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";
import type { TestProvider } from "@/test/support/oidc-provider";
import { signInWithOidc, signOutThroughProvider } from "@/test/support/pages";
import { startOidcTeamConsole, type OidcTeamConsole } from "@/test/support/team-console";
import { pressEnterToSubmit } from "./console-support";

const CARD = "6006491000000001";
const ROLE_GROUPS = "admin:console-admins,tester:certification,engineer:developers,support:support-desk";
const SAM_TICKET = "TICKET-SAM-123";

interface AuditRow {
  event: string;
  user_id: string | null;
  reason: string | null;
}

let sandbox: SandboxServer;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0 });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

/** Every audit row the signed-in admin may read (newest first), from the page. */
async function auditRows(page: Page): Promise<AuditRow[]> {
  return page.evaluate(async () => {
    const response = await fetch("/api/audit?limit=200");
    return ((await response.json()) as { rows: AuditRow[] }).rows;
  });
}

/** The support desk's card box: type a card, Enter, wait for the answer. */
async function lookUp(page: Page) {
  await page.getByLabel("Card number", { exact: true }).fill(CARD);
  await pressEnterToSubmit(page.getByLabel("Card number", { exact: true }));
  await page
    .getByRole("list", { name: "Recent lookups" })
    .getByText("•••• 0001")
    .waitFor({ timeout: 60_000 });
}

describe("AUTH_MODE=oidc: two people in one browser tab", () => {
  let team: OidcTeamConsole;
  let provider: TestProvider;
  let context: BrowserContext;
  let page: Page;
  let url: string;

  beforeAll(async () => {
    team = await startOidcTeamConsole(sandbox.url, {
      ROLE_GROUPS,
    });
    ({ url, provider } = team);
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await team?.stop();
  });

  /** From the sign-in screen of `path`, through the provider's form, back on `path` as `name`. */
  const signIn = (path: string, name: string) => signInWithOidc(page, url, path, name);
  const signOut = () => signOutThroughProvider(page, url, provider.issuer);

  it("Sam's ticket and lookups are gone for Alice, and her lookup is not audited under his ticket", async () => {
    await signIn("/support", "sam");
    await page.getByLabel("Reason or ticket").fill(SAM_TICKET);
    await lookUp(page);
    await signOut();
    // Nothing of Sam's shift is left in the tab.
    const left = await page.evaluate(() => JSON.stringify({ ...sessionStorage }));
    expect(left).not.toContain(SAM_TICKET);
    expect(left).not.toContain("0001");

    await signIn("/support", "alice");
    expect(await page.getByLabel("Reason or ticket").inputValue()).toBe("");
    await page.getByText("No lookups yet in this session.").waitFor();
    await page.screenshot({ path: screenshotPath("shared-browser-alice-support"), fullPage: true });
    await lookUp(page);
    const rows = await auditRows(page);
    const alices = rows.filter((row) => row.user_id === "alice" && row.event !== "sign_in");
    expect(alices.length).toBeGreaterThan(0);
    expect(alices.map((row) => row.reason)).not.toContain(SAM_TICKET);
    await signOut();
  });

  it("Eve's history and Location ID do not show for Tess", async () => {
    await signIn("/inquiry", "eve");
    await page.getByLabel("Environment").selectOption("production");
    await page
      .getByLabel(/card number/i)
      .first()
      .fill(CARD);
    await page.getByLabel("Location ID").fill("EVE-STORE-9");
    await page.getByRole("button", { name: /^Run Balance Inquiry/ }).click();
    await page.getByText("Loyalty rewards").first().waitFor({ timeout: 60_000 });
    await page.goto(`${url}/history`);
    await page.getByText("EVE-STORE-9").first().waitFor();
    await signOut();
    // Her history database and remembered fields went with her.
    const kept = await page.evaluate(async () => ({
      databases: (await indexedDB.databases()).map((database) => database.name),
      local: JSON.stringify({ ...localStorage }),
    }));
    expect(kept.databases.filter((name) => name?.startsWith("card-services-console"))).toEqual([]);
    expect(kept.local).not.toContain("EVE-STORE-9");

    await signIn("/inquiry", "tess");
    expect(await page.getByLabel("Location ID").inputValue()).not.toBe("EVE-STORE-9");
    await page.goto(`${url}/history`);
    await page.getByText("No runs yet").waitFor();
    expect(await page.getByText("EVE-STORE-9").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("shared-browser-tess-history"), fullPage: true });
  });
});

describe("AUTH_MODE=proxy: the proxy switches users under an open page", () => {
  const SECRET = "browser-test-proxy-shared-secret-0123";
  let server: ConsoleServer;
  let context: BrowserContext;
  let page: Page;

  const as = (user: string, groups: string) =>
    context.setExtraHTTPHeaders(proxyIdentity(SECRET)(user, groups));

  beforeAll(async () => {
    server = await startProxyConsole({
      secret: SECRET,
      roleGroups: ROLE_GROUPS,
      env: {
        TRUSTED_PROXIES: "127.0.0.1/32",
        CARD_API_AUTH_URL: sandbox.url,
        CARD_API_PRODUCTION_URL: sandbox.url,
        CARD_API_CLIENT_ID: "demo-client",
        CARD_API_CLIENT_SECRET: "demo-secret",
        AUDIT_HMAC_KEY: "browser-test-audit-hmac-key-of-32-characters",
      },
    });
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.stop();
  });

  it("reloads as Alice before her lookup can go out with Sam's ticket", async () => {
    await as("sam", "support-desk");
    await page.goto(`${server.url}/support`);
    await page.getByTestId("signed-in-user").getByText("sam").waitFor();
    await page.getByLabel("Reason or ticket").fill(SAM_TICKET);
    await lookUp(page);

    // The proxy now names Alice; the page was loaded for Sam and still shows his ticket.
    await as("alice", "console-admins");
    await page.getByLabel("Card number", { exact: true }).fill(CARD);
    await pressEnterToSubmit(page.getByLabel("Card number", { exact: true }));
    await page.getByTestId("signed-in-user").getByText("alice").waitFor();
    expect(await page.getByLabel("Reason or ticket").inputValue()).toBe("");
    await page.getByText("No lookups yet in this session.").waitFor();
    await page.screenshot({ path: screenshotPath("shared-browser-proxy-switch"), fullPage: true });

    await lookUp(page);
    const rows = await auditRows(page);
    const alices = rows.filter((row) => row.user_id === "alice");
    expect(alices.some((row) => row.event === "support_lookup" || row.event.includes("lookup"))).toBe(true);
    expect(alices.filter((row) => row.event !== "refused").map((row) => row.reason)).not.toContain(
      SAM_TICKET,
    );
  });
});
