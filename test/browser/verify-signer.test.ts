/**
 * The certification page's "Verify a bundle" in Chromium, for the three signers an intact bundle can have:
 * this console (green), a key EVIDENCE_TRUSTED_KEYS names (green, by its name), and an unknown key — an edited
 * bundle signed again by a forger — which must never show green.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { buildEvidenceBundle } from "@/lib/server/certification/evidence/bundle";
import { loadEvidenceSigningKey } from "@/lib/server/certification/signing-key";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { forgedManifest, newSigningKey, resignBundle, type TestSigningKey } from "@/test/support/evidence";
import { certify } from "../unit/server/certification/harness";

const work = mkdtempSync(path.join(os.tmpdir(), "verify-signer-"));
let server: ConsoleServer;
let browser: Browser;
let page: Page;
let own: TestSigningKey;
let partner: TestSigningKey;
let genuine: Uint8Array;

beforeAll(async () => {
  [own, partner] = await Promise.all([newSigningKey(), newSigningKey()]);
  server = await startConsole({
    EVIDENCE_SIGNING_KEY: own.pem,
    EVIDENCE_TRUSTED_KEYS: `Partner console:${partner.thumbprint}`,
  });
  // A bundle signed with the console's own key, made here: the page checks it the same as one it made.
  const { run } = await certify({ caseIds: ["TOK-01", "BI-01"] });
  const key = await loadEvidenceSigningKey({ env: { EVIDENCE_SIGNING_KEY: own.pem } });
  ({ zip: genuine } = await buildEvidenceBundle({
    run,
    key,
    console: consoleInfo(),
    specification: specificationInfo(),
  }));
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  page = await context.newPage();
  await page.goto(`${server.url}/certification`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Uploads a bundle on the page; the verdict it shows, its text and its colour. */
async function verifyOnPage(name: string, zip: Uint8Array) {
  const file = path.join(work, `${name}.zip`);
  writeFileSync(file, zip);
  const panel = page.getByRole("region", { name: "Verify a bundle" });
  await panel.getByLabel("Evidence bundle (.zip)").setInputFiles(file);
  await panel.getByRole("button", { name: "Verify", exact: true }).click();
  const result = panel.getByRole("status").filter({ hasText: /intact/i });
  await result.waitFor();
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: screenshotPath(`verify-signer-${name}`) });
  return { text: await result.innerText(), className: (await result.getAttribute("class")) ?? "" };
}

describe("verify a bundle: who signed it", () => {
  it("this console's key: green, signed by this console", async () => {
    const shown = await verifyOnPage("this-console", genuine);
    expect(shown.text).toContain("Intact — signed by this console");
    expect(shown.text).toContain(own.thumbprint);
    expect(shown.className).toMatch(/\bbg-success\b/);
  });

  it("a trusted key: green, signed by the trusted key's name", async () => {
    const shown = await verifyOnPage("trusted", await resignBundle(genuine, partner));
    expect(shown.text).toContain("Intact — signed by trusted key Partner console");
    expect(shown.text).toContain(partner.thumbprint);
    expect(shown.className).toMatch(/\bbg-success\b/);
  });

  it("an edited bundle signed again with a forger's key: amber, an unknown key, never green", async () => {
    const forger = await newSigningKey();
    const shown = await verifyOnPage("unknown", await resignBundle(genuine, forger, forgedManifest));
    expect(shown.text).toContain("Intact, but signed by an unknown key — not proof from this console");
    expect(shown.text).toContain("by forger");
    expect(shown.text).toContain(forger.thumbprint);
    expect(shown.className).toMatch(/\bbg-warning\b/);
    expect(shown.className).not.toMatch(/success/);
  });
});
