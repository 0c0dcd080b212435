/**
 * The page of a fault certification (docs/design.md §14), after `npm run certify-client` ran a flawed client
 * against the run's shared console: the smallest failing plan comes first, each plan is a row with its faults and
 * verdict, and a plan's calls show the injected fault on the call it hit. It fits 390 px, light and dark, and
 * axe finds nothing. Screenshots at 1440 and 390 px, light and dark.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, screenshotPath } from "@/test/support/browser";
import { sharedConsole, type ConsoleServer } from "@/test/support/console-server";
import { axeViolations, forceTheme, overflowsHorizontally } from "./console-support";
import { fileTempDir } from "@/test/support/temp-dirs";
import { runToEnd } from "@/test/support/run-to-end";

const root = path.resolve(import.meta.dirname, "../..");
const CLIENT = path.join(root, "test/fixtures/fault-clients/reference-client.mjs");
/** Where the final screenshots are kept for review, beside the run's own folder. */
const SHOTS = process.env.FAULT_SHOTS_DIR;

let server: ConsoleServer;
let browser: Browser;
let certificationId = "";

async function certifyClient(args: string[]): Promise<string> {
  const out = fileTempDir("fault-page-");
  const { output } = await runToEnd(
    process.execPath,
    ["--import", "tsx", "scripts/certify-client.ts", "--console", server.url, "--out", out, ...args],
    { cwd: root },
  );
  return output;
}

beforeAll(async () => {
  server = await sharedConsole();
  browser = await launchBrowser();
  const output = await certifyClient([
    "--command",
    `node ${CLIENT} --flaw new-id-after-500`,
    "--families",
    "status_500_after_commit,unknown_fields",
    "--plans",
    "3",
    "--seed",
    "3",
    "--timeout-ms",
    "1000",
  ]);
  certificationId = /^Fault certification (\S+) /m.exec(output)?.[1] ?? "";
  expect(certificationId, output).not.toBe("");
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width > 1000 ? 1500 : 1000 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/certification/clients/${certificationId}`);
  await page.getByRole("heading", { name: "Smallest failing plans" }).waitFor();
  return page;
}

test("the smallest failing plan comes first, opened on its calls with the fault on the call it hit", async () => {
  const page = await open(1440);
  const reproducers = page.getByRole("list", { name: "Smallest failing plans" });
  const first = reproducers.locator("[data-plan]").first();
  expect(await first.getAttribute("data-plan")).toBe("gift#1:status_500_after_commit");
  expect(await first.getAttribute("data-passed")).toBe("false");
  await expect.poll(() => first.innerText()).toMatch(/CLI-NO-DUPLICATE-WRITE/);
  const faulted = first.locator("[data-fault]");
  expect(await faulted.count()).toBe(1);
  expect(await faulted.innerText()).toBe("fault: status_500_after_commit");
  // The call it hit answered 500, and the client's next inquiry for the card, under a new id, is there too.
  await expect.poll(() => first.locator("[data-call]").count()).toBeGreaterThanOrEqual(3);
  const plans = page.getByRole("list", { name: "Plans", exact: true });
  expect(await plans.locator("[data-plan]").first().getAttribute("data-plan")).toBe("baseline");
  expect(
    await plans
      .locator('[data-plan="balance#1:unknown_fields"], [data-plan="token#1:unknown_fields"]')
      .count(),
  ).toBeGreaterThan(0);
  expect(await page.locator('[data-check="CLI-NO-DUPLICATE-WRITE"]').getAttribute("data-verdict")).toBe(
    "fail",
  );
  expect(await axeViolations(page)).toEqual([]);
  await page.context().close();
});

test.each([1440, 390])("at %i px it fits, light and dark", async (width) => {
  const page = await open(width);
  for (const theme of ["light", "dark"] as const) {
    await forceTheme(page, theme);
    expect(await overflowsHorizontally(page)).toBe(false);
    const file = screenshotPath(`fault-certification-${width}-${theme}`);
    await page.screenshot({ path: file });
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      copyFileSync(file, path.join(SHOTS, `fault-certification-${width}-${theme}.png`));
    }
  }
  await page.context().close();
});
