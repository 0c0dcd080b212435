/**
 * The certification page in Chromium: start a run on the embedded sandbox and watch it finish, open a
 * case's checks, download the signed bundle, upload it to verify, run production (the warning, the
 * confirmation, Gift Balance Inquiry not applicable without the opt-in) and compare the two runs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { axeViolations } from "./console-support";

const work = mkdtempSync(path.join(os.tmpdir(), "cert-page-"));
let upstream: SandboxServer;
let server: ConsoleServer;
let browser: Browser;
let page: Page;

async function runFinished(target: Page, total: number) {
  const progress = target.getByTestId("run-progress");
  await expect.poll(() => progress.innerText(), { timeout: 60_000 }).toBe(`${total} of ${total} cases run`);
}

describe("certification page", () => {
  beforeAll(async () => {
    upstream = await startSandboxServer({ port: 0 });
    const profile = path.join(work, "profile.json");
    writeFileSync(
      profile,
      JSON.stringify({ cards: { active: "6006491000000001" }, location_id: "cert-location-1" }),
    );
    server = await startConsole({
      CARD_API_AUTH_URL: upstream.url,
      CARD_API_PRODUCTION_URL: upstream.url,
      CERTIFICATION_PROFILE: profile,
    });
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: { width: 1440, height: 1000 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    await page.goto(`${server.url}/certification`);
    // Credentials that work on both environments (the demo profile is for the embedded sandbox only).
    const status = await page.evaluate(() =>
      fetch("/api/session/credentials", {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ client_id: "demo-client", client_secret: "demo-secret" }),
      }).then((response) => response.status),
    );
    expect(status).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await upstream?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("runs the catalogue on the embedded sandbox with live progress, and shows each case's checks", async () => {
    await page.goto(`${server.url}/certification`);
    // The runs list comes from the server after hydration: the form's buttons now act through React.
    // (The first call also opens the embedded database, which can take a while on a busy machine.)
    await page.getByRole("region", { name: "Runs" }).getByText("No run yet.").waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByRole("group", { name: /Tokens/ }).count()).toBe(1);
    for (const group of ["Authorization", "Gift Balance Inquiry", "Balance Inquiry", "Versioning"]) {
      await page.getByRole("group", { name: new RegExp(`^${group}`) }).waitFor();
    }
    await page.getByRole("region", { name: "New run" }).getByLabel("Environment").selectOption("embedded");
    await page.getByRole("button", { name: "Start run on Embedded sandbox" }).click();
    await page.getByRole("progressbar", { name: "Run progress" }).waitFor();
    expect(page.url()).toMatch(/\?run=[0-9a-f-]{36}/);
    await runFinished(page, 25);
    await page.getByText("0 fail").first().waitFor();

    await page.getByRole("button", { name: "BI-01", exact: true }).click();
    const checks = page.locator("#case-BI-01");
    await checks.getByRole("columnheader", { name: "Expected" }).waitFor();
    expect(await checks.innerText()).toMatch(/Exchanges \(\d+\)/);
    expect(await checks.innerText()).toContain("balance_inquiry · HTTP 200");
    // The exchange itself, on the page: request and response as stored (card masked, token redacted).
    const exchange = checks
      .getByTestId("case-exchange")
      .filter({ hasText: "balance_inquiry · HTTP 200" })
      .first();
    await exchange.locator("summary").click();
    await exchange.getByRole("heading", { name: /^Exchange / }).waitFor();
    await exchange.getByText("Request", { exact: true }).click();
    const shown = await exchange.innerText();
    expect(shown).toContain("600649******0001");
    expect(shown).not.toContain("6006491000000001");
    expect(shown).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("certification-1440"), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  }, 240_000);

  it("downloads the signed bundle and verifies it by upload", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download evidence (.zip)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^certification-embedded-.+\.zip$/);
    const file = path.join(work, download.suggestedFilename());
    await download.saveAs(file);
    const verified = await verifyEvidence(new Uint8Array(readFileSync(file)));
    expect(verified.problems).toEqual([]);

    await page.getByLabel("Evidence bundle (.zip)").setInputFiles(file);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.getByText("Intact — signed by this console").waitFor();
    await page.getByText("Signed with this console's key").waitFor();

    // One changed byte in a file's data: not intact. (A byte of the zip's own metadata, a timestamp say, is
    // covered by no checksum, so the first byte from the middle on that the verifier rejects is used.)
    const original = readFileSync(file);
    let bytes = original;
    for (let at = Math.floor(original.length / 2); at < original.length; at += 1) {
      bytes = Buffer.from(original);
      bytes[at] = bytes[at]! ^ 0xff;
      if (!(await verifyEvidence(new Uint8Array(bytes))).ok) break;
    }
    const broken = path.join(work, "broken.zip");
    writeFileSync(broken, bytes);
    await page.getByLabel("Evidence bundle (.zip)").setInputFiles(broken);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.getByText("Not intact: the bundle does not verify").waitFor();
  });

  it("warns before production, runs it without Gift Balance Inquiry, and compares it with the sandbox run", async () => {
    await page.getByRole("region", { name: "New run" }).getByLabel("Environment").selectOption("production");
    await page.getByText("Gift Balance Inquiry cases record real transactions").first().waitFor();
    const optIn = page.getByLabel("Run Gift Balance Inquiry cases in production (records real transactions)");
    expect(await optIn.isChecked()).toBe(false);
    await page.getByRole("button", { name: "Start run on Production" }).click();
    const dialog = page.getByRole("dialog", { name: "Start a certification run in production?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Start production run" }).click();
    await runFinished(page, 25);

    const compare = page.getByLabel("Compare with");
    const embeddedRun = await compare
      .locator("option", { hasText: "Embedded sandbox" })
      .first()
      .getAttribute("value");
    await compare.selectOption(embeddedRun!);
    await page.getByText(/\d+ cases? changed verdict/).waitFor();
    const gift = page.locator('tr[data-changed-case="GBI-01"]');
    expect(await gift.innerText()).toMatch(/pass\s+not applicable/);
    expect(page.url()).toContain(`compare=${embeddedRun}`);

    const runs = page.getByRole("table", { name: "Certification runs" });
    await expect.poll(() => runs.locator("tbody tr").count()).toBe(2);

    // The README's picture (docs/screenshots/certification.png): the production run, its verdicts and the comparison, below the sticky header.
    await page.setViewportSize({ width: 1440, height: 1800 });
    await page
      .getByRole("region", { name: /Run on Production/ })
      .evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 120));
    await page.screenshot({ path: screenshotPath("certification-run-1440") });
    // On a phone: the same run and comparison (from the URL), laid out at 390 px.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByText(/\d+ cases? changed verdict/).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("certification-390"), fullPage: true });
    // Nothing wider than the screen, except inside its own horizontal scroller.
    const overflowing = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll("body *")]
        .filter((element) => element.getBoundingClientRect().right > width + 1)
        .filter((element) => {
          for (let parent = element.parentElement; parent; parent = parent.parentElement) {
            const style = getComputedStyle(parent);
            if (style.overflowX === "auto" || style.overflowX === "scroll") return false;
          }
          return true;
        })
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 120));
    });
    expect(overflowing.join("\n")).toBe("");
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
  });

  it("waits for a token to expire only when asked, cancels a run with confirmation, and marks it partial", async () => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(`${server.url}/certification`);
    const form = page.getByRole("region", { name: "New run" });
    await form.getByLabel("Environment").selectOption("embedded");
    const wait = form.getByRole("checkbox", {
      name: /^Wait for a token to expire \(AUTH-03\): adds about 60 s/,
    });
    expect(await wait.isChecked()).toBe(false);
    // Only AUTH-03: every group emptied, then the one case.
    const selectNone = form.getByRole("button", { name: /^Select none/ });
    while ((await selectNone.count()) > 0) await selectNone.first().click();
    expect(await wait.isDisabled()).toBe(true);
    await form.getByRole("checkbox", { name: /^AUTH-03 / }).check();
    await wait.check();
    await form.getByRole("button", { name: "Start run on Embedded sandbox" }).click();

    const cancel = page.getByRole("button", { name: "Cancel run" });
    await cancel.waitFor({ timeout: 60_000 });
    await cancel.click();
    const dialog = page.getByRole("dialog", { name: "Cancel this certification run?" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel the run" }).click();
    await page.getByText("Stopped on request after").waitFor({ timeout: 30_000 });
    const runs = page.getByRole("table", { name: "Certification runs" });
    await runs.getByTestId("run-partial").filter({ hasText: "partial: 1 of 25 cases" }).first().waitFor();
    await page.getByRole("link", { name: "Download evidence (.zip)" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("certification-cancelled-1440"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath("certification-cancelled-390"), fullPage: true });
  }, 120_000);
});

describe("certification page without the operator's test data", () => {
  let bare: ConsoleServer;
  let sandbox: SandboxServer;
  let bareBrowser: Browser;

  beforeAll(async () => {
    sandbox = await startSandboxServer({ port: 0 });
    // Production configured, CERTIFICATION_PROFILE not: the server can call production but not certify it.
    bare = await startConsole({ CARD_API_AUTH_URL: sandbox.url, CARD_API_PRODUCTION_URL: sandbox.url });
    bareBrowser = await launchBrowser();
  });

  afterAll(async () => {
    await bareBrowser?.close();
    await bare?.stop();
    await sandbox?.close();
  });

  it("says before any confirmation that production cannot be certified, and why", async () => {
    const context = await bareBrowser.newContext({ viewport: { width: 1440, height: 1000 } });
    const target = await context.newPage();
    await target.goto(`${bare.url}/certification`);
    const form = target.getByRole("region", { name: "New run" });
    const reason = form.getByTestId("not-certifiable");
    await reason.waitFor({ timeout: 120_000 });
    expect(await reason.innerText()).toMatch(/Production cannot be certified here: .*CERTIFICATION_PROFILE/);
    const option = form.getByLabel("Environment").locator("option[value=production]");
    expect(await option.isDisabled()).toBe(true);
    expect(await option.innerText()).toContain("not available");
    // The embedded sandbox stays the choice, and can be started once the session has credentials.
    expect(await form.getByLabel("Environment").inputValue()).toBe("embedded");
    const start = form.getByRole("button", { name: "Start run on Embedded sandbox" });
    expect(await start.isDisabled()).toBe(true);
    await form.getByRole("button", { name: "Use demo credentials" }).click();
    await expect.poll(() => start.isEnabled()).toBe(true);
    expect(await axeViolations(target)).toEqual([]);
    await target.screenshot({ path: screenshotPath("certification-not-certifiable-1440") });
    await target.setViewportSize({ width: 390, height: 844 });
    await target.screenshot({ path: screenshotPath("certification-not-certifiable-390"), fullPage: true });
    await context.close();
  });
});
