/**
 * A team console behind a reverse proxy, as an admin meets it in Chromium: the Sessions page lists the people whose
 * pages are open (not only those whose session holds credentials); suspending a user id the console never saw
 * (`Eve` when the user is `eve`) is asked about first; a suspended user's open page says until when in local time,
 * so does the page after a reload, and both come back by themselves when the suspension is lifted.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import type { ConsoleServer } from "@/test/support/console-server";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";
import { pressEnterToSubmit } from "./console-support";

const SECRET = "proxy-shared-secret-for-presence";
const identity = proxyIdentity(SECRET);
const ADMIN = identity("ada", "console-admins");
const PEOPLE = [
  { user: "eve", groups: "support-desk", path: "/support" },
  { user: "finn", groups: "developers", path: "/inquiry" },
  { user: "gus", groups: "support-desk", path: "/support" },
  { user: "hana", groups: "developers", path: "/" },
];
/** A time zone unlike the server's, so a time shown in it cannot be the server's rendering. */
const TIME_ZONE = "Pacific/Auckland";

let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  server = await startProxyConsole({
    secret: SECRET,
    roleGroups: "admin:console-admins,support:support-desk,engineer:developers",
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(
  headers: Record<string, string>,
  path: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    extraHTTPHeaders: headers,
    timezoneId: TIME_ZONE,
  });
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  return { context, page };
}

/** The local time the browser shows for `iso`, as the console formats every time. */
function localTime(page: Page, iso: string): Promise<string> {
  return page.evaluate((value) => new Date(value).toLocaleString(), iso);
}

describe("the Sessions page behind a proxy", () => {
  it("lists everyone whose page is open, asks before suspending an unknown id, and the suspension shows in local time until lifted", async () => {
    const people = [];
    for (const person of PEOPLE) {
      const opened = await open(identity(person.user, person.groups), person.path);
      await opened.page.getByRole("navigation").first().waitFor();
      people.push(opened);
    }
    const admin = await open(ADMIN, "/admin/sessions");
    const list = admin.page.getByRole("table", { name: "Signed in now" });
    for (const person of PEOPLE) await list.getByRole("cell", { name: person.user, exact: true }).waitFor();
    await admin.page.screenshot({
      path: screenshotPath("admin-sessions-proxy-presence-1440"),
      fullPage: true,
    });

    // `Eve` is not `eve`: the console asks, naming the id it has seen, and suspends nobody until told to.
    const form = admin.page.getByRole("form", { name: "Suspend a user" });
    await form.getByLabel("User id").fill("Eve");
    await form.getByRole("button", { name: "Suspend" }).click();
    const asked = admin.page.getByRole("dialog", { name: "Suspend Eve, a user the console has never seen?" });
    await asked.waitFor();
    expect(await asked.innerText()).toContain("eve");
    await admin.page.screenshot({ path: screenshotPath("admin-suspend-unknown-1440"), fullPage: true });
    await asked.getByRole("button", { name: "Cancel" }).click();
    expect(await admin.page.getByText("Nobody is suspended.").isVisible()).toBe(true);

    // eve, from the list: her open page says until when, in her local time.
    const eve = people[0]!;
    await admin.page.getByRole("button", { name: "Suspend eve" }).click();
    const dialog = admin.page.getByRole("dialog", { name: "Suspend eve?" });
    await dialog.getByLabel("For").selectOption({ label: "8 hours" });
    await dialog.getByRole("button", { name: "Suspend" }).click();
    await admin.page.getByRole("button", { name: "Lift eve's suspension" }).waitFor();
    const until = await admin.page.evaluate(async () => {
      const answer = (await (await fetch("/api/admin/suspensions")).json()) as {
        suspensions: { user_id: string; until: string }[];
      };
      return answer.suspensions.find((row) => row.user_id === "eve")!.until;
    });
    const shown = await localTime(eve.page, until);

    await eve.page.getByLabel("Card number", { exact: true }).fill("6006491000000001");
    await pressEnterToSubmit(eve.page.getByLabel("Card number", { exact: true }));
    const ended = eve.page.getByRole("region", { name: "Your session has ended" });
    await ended.waitFor();
    expect(await ended.innerText()).toContain(`until ${shown}`);
    expect(await ended.innerText()).not.toContain("for a while");
    await eve.page.screenshot({ path: screenshotPath("proxy-suspended-open-page-1440"), fullPage: true });

    await eve.page.reload();
    const gate = eve.page.getByRole("heading", { name: "Your access is suspended" });
    await gate.waitFor();
    await eve.page.getByText(`until ${shown}`).waitFor();
    expect(await eve.page.locator("main").innerText()).not.toContain("GMT");

    // Lifted: the page comes back by itself, with no reload by hand.
    await admin.page.getByRole("button", { name: "Lift eve's suspension" }).click();
    await admin.page.getByText("eve's suspension is lifted.").waitFor();
    await eve.page.getByLabel("Card number", { exact: true }).waitFor({ timeout: 30_000 });
    for (const opened of [...people, admin]) await opened.context.close();
  }, 180_000);
});
