/**
 * The history page in Chromium against the embedded sandbox: runs appear as they are made, filters narrow
 * them, export is JSON with masked card numbers only, import restores it, a replay with the same Request Id
 * shows the sandbox's 409 duplicate_request_id, and clear asks first.
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshotPath } from "@/test/support/browser";
import type { ConsoleServer } from "@/test/support/console-server";
import { connectWithDemoCredentials, type ConsolePage, openConsolePage } from "@/test/support/pages";
import { historyCount } from "./console-support";

const ACTIVE_CARD = "6006491000000001";
const INACTIVE_CARD = "6006491000000027";

let server: ConsoleServer;
let page: Page;
let session: ConsolePage;
let exportFile = "";

const rows = () => page.getByTestId("history-table").locator("tbody tr");

async function rowCount(): Promise<number> {
  if ((await page.getByTestId("history-table").count()) === 0) return 0;
  return rows().count();
}

/** Run both on the compare page, until its three runs (gift, balance, lookup of the gift) are in history. */
async function runBoth(card: string) {
  await page.goto(`${server.url}/compare`);
  const before = await historyCount(page);
  await page.getByLabel("Card number").fill(card);
  await page.getByRole("button", { name: /^Run both/ }).click();
  await expect.poll(() => historyCount(page), { timeout: 20_000 }).toBe(before + 3);
  await page.getByTestId("gift-check").waitFor({ timeout: 20_000 });
}

describe("history page", () => {
  beforeAll(async () => {
    session = await openConsolePage({
      context: { viewport: { width: 1280, height: 900 }, acceptDownloads: true },
      demo: true,
    });
    ({ server, page } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("starts empty, with a way forward", async () => {
    await page.goto(`${server.url}/history`);
    await page.getByText("No runs yet").waitFor();
    expect(await page.getByRole("button", { name: "Export JSON" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Clear…" }).isDisabled()).toBe(true);
  });

  // Each Run both records three runs: the two inquiries and the lookup of the gift run's Request Id.
  it("lists every run, newest first, with masked cards and statuses", async () => {
    await runBoth(ACTIVE_CARD);
    await runBoth(INACTIVE_CARD);
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(6);
    expect(await page.getByTestId("history-count").innerText()).toBe("6 runs kept · showing 6");
    const text = await page.getByTestId("history-table").innerText();
    expect(text).toContain("600649******0001");
    expect(text).toContain("600649******0027");
    expect(text).not.toContain(ACTIVE_CARD);
    expect(text).toMatch(/201 Created/);
    expect(text).toMatch(/200 OK/);
    expect(text).toMatch(/declined · card_inactive/);
    expect(text).toMatch(/approved · 25\.00/);
    // Newest first: the inactive card's runs come before the active card's.
    expect(await rows().first().innerText()).toContain("600649******0027");
  });

  it("fits its card at 1440 and 390 px: every row's actions inside it", async () => {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const card = page.locator("section", { has: page.getByTestId("history-table") });
      const cardBox = (await card.boundingBox())!;
      for (const button of await page.getByRole("button", { name: /^(Delete|Reuse Id)/ }).all()) {
        const box = (await button.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      }
      // Nothing scrolls sideways: the table is no wider than its card.
      const overflow = await card.evaluate((element) => element.scrollWidth - element.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: screenshotPath(`history-runs-${width}`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("filters by operation, environment, card last 4 and status, and keeps them in the URL", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(6);

    await page.getByLabel("Operation").selectOption("gift_balance_inquiry");
    await expect.poll(rowCount).toBe(2);
    expect(page.url()).toContain("operation=gift_balance_inquiry");

    await page.getByLabel("Card last 4").fill("0027");
    await expect.poll(rowCount).toBe(1);
    expect(await rows().first().innerText()).toMatch(/Gift Balance Inquiry[\s\S]*600649\*{6}0027/);
    expect(await page.getByTestId("history-count").innerText()).toBe("1 of 6 runs match · showing 1");

    await page.getByRole("button", { name: "Reset filters" }).first().click();
    await expect.poll(rowCount).toBe(6);

    await page.getByLabel("Status").selectOption("201");
    await expect.poll(rowCount).toBe(2);
    await page.getByLabel("Status").selectOption("4xx");
    await page.getByText("No run matches these filters").waitFor();

    await page.getByLabel("Status").selectOption("");
    await page.locator("main").getByLabel("Environment").selectOption("production");
    await page.getByText("No run matches these filters").waitFor();
    await page.locator("main").getByLabel("Environment").selectOption("embedded");
    await expect.poll(rowCount).toBe(6);

    // A filtered view survives a reload.
    await page.getByLabel("Operation").selectOption("balance_inquiry");
    await page.reload();
    await expect.poll(rowCount).toBe(2);
    expect(await page.getByLabel("Operation").inputValue()).toBe("balance_inquiry");
    await page.getByRole("button", { name: "Reset filters" }).first().click();
  });

  it("opens a run with its full exchange", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(6);
    await page.getByRole("button", { name: /^Open Gift Balance Inquiry 600649\*{6}0001/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.getByRole("heading", { level: 2 }).innerText()).toBe("Gift Balance Inquiry");
    const text = await dialog.innerText();
    expect(text).toContain("201 Created");
    expect(text).toContain("/transaction/v1/gift/balance-inquiry");
    expect(page.url()).toMatch(/run=/);
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(page.url()).not.toMatch(/run=/);
  });

  it("exports JSON with masked card numbers and no full one", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(6);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export JSON" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^card-services-history-.*\.json$/);
    exportFile = path.join(os.tmpdir(), `history-export-${process.pid}.json`);
    await download.saveAs(exportFile);
    const text = readFileSync(exportFile, "utf8");
    const document = JSON.parse(text) as { format: string; runs: { exchange: { operation: string } }[] };
    expect(document.format).toBe("card-services-console-history");
    expect(document.runs).toHaveLength(6);
    expect(text).toContain("600649******0001");
    // No 12–19 digit run once UUIDs are set aside (a UUID's last group can be 12 digits).
    const withoutUuids = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "");
    expect(withoutUuids).not.toMatch(/(?<!\d)\d{12,19}(?!\d)/);
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./);
  });

  it("replays with the same Request Id and shows the sandbox's 409 duplicate_request_id", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(6);
    await page
      .getByRole("button", {
        name: /^Reuse Id: replay Gift Balance Inquiry 600649\*{6}0001 .* same Request Id$/,
      })
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.getByLabel(/Reuse the same Request Id/).isChecked()).toBe(true);

    // The card must be typed again, and must be the recorded card.
    await dialog.getByLabel("Card number").fill("6006491000000019");
    await dialog.getByRole("button", { name: "Replay Gift Balance Inquiry" }).click();
    await dialog.getByText("This is not 600649******0001, the card of the original run.").waitFor();

    await dialog.getByLabel("Card number").fill(ACTIVE_CARD);
    await dialog.getByRole("button", { name: "Replay Gift Balance Inquiry" }).click();
    const result = dialog.getByTestId("replay-result");
    await result.waitFor({ timeout: 20_000 });
    const text = await result.innerText();
    expect(text).toContain("409 Conflict");
    expect(text).toMatch(/Request Id was already used/);
    expect(text).toContain("duplicate_request_id");
    await dialog.getByRole("button", { name: "Close" }).click();

    await expect.poll(rowCount).toBe(7);
    expect(await rows().first().innerText()).toContain("409 Conflict");
  });

  it("replays with a fresh Request Id: a new 201", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(7);
    await page.getByRole("button", { name: /^Replay Balance Inquiry 600649\*{6}0001/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Card number").fill(ACTIVE_CARD);
    await dialog.getByRole("button", { name: "Replay Balance Inquiry" }).click();
    await dialog.getByTestId("replay-result").waitFor({ timeout: 20_000 });
    expect(await dialog.getByTestId("replay-result").innerText()).toContain("200 OK");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(rowCount).toBe(8);
  });

  it("a replay the console refuses shows through the error alert, with its code and what to do", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(8);
    // Forget the session's credentials: the console then refuses the replay with 401 no_credentials.
    const refusal = await page.evaluate(async () => {
      await fetch("/api/session", {
        method: "DELETE",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      const answer = await fetch("/api/inquiries/balance", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ card_number: "6006491000000001", location_id: "probe" }),
      });
      return {
        status: answer.status,
        body: (await answer.json()) as { error: { code: string; message: string } },
      };
    });
    expect(refusal.status).toBe(401);
    expect(refusal.body.error.code).toBe("no_credentials");

    await page
      .getByRole("button", { name: /^Replay Balance Inquiry 600649\*{6}0001/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Card number").fill(ACTIVE_CARD);
    await dialog.getByRole("button", { name: "Replay Balance Inquiry" }).click();
    const alert = dialog.getByTestId("api-error");
    await alert.getByText("Connect first").waitFor();
    const text = await alert.innerText();
    expect(text).toContain("HTTP 401 · no_credentials");
    expect(text).toContain("This session has no credentials yet");
    expect(await alert.getByRole("link", { name: "Go to Connect" }).count()).toBe(1);
    expect(await dialog.getByTestId("replay-result").count()).toBe(0);
    await dialog.getByRole("button", { name: "Close" }).click();
    expect(await rowCount()).toBe(8);
    await connectWithDemoCredentials(page, server.url);
  });

  it("clears only after confirmation, then imports the export back", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(8);

    await page.getByRole("button", { name: "Clear…" }).click();
    const confirm = page.getByRole("dialog", { name: "Clear the history?" });
    await confirm.waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await rowCount()).toBe(8);

    await page.getByRole("button", { name: "Clear…" }).click();
    await confirm.getByRole("button", { name: "Delete 8 runs" }).click();
    await page.getByText("No runs yet").waitFor();
    expect(await page.getByText("Deleted 8 runs from this browser.").count()).toBe(1);

    const [chooser] = await Promise.all([
      page.waitForEvent("filechooser"),
      page.getByRole("button", { name: "Import JSON" }).click(),
    ]);
    await chooser.setFiles(exportFile);
    await expect.poll(rowCount).toBe(6);
    expect(await page.getByText(/Imported 6 runs from/).count()).toBe(1);
    expect(await page.getByTestId("history-table").innerText()).toContain("600649******0027");
  });

  it("refuses a file that is not a history export, and masks full card numbers in an import", async () => {
    await page.goto(`${server.url}/history`);
    await expect.poll(rowCount).toBe(6);
    const bogus = path.join(os.tmpdir(), `history-bogus-${process.pid}.json`);
    writeFileSync(bogus, JSON.stringify({ hello: "world" }));
    const [chooser] = await Promise.all([
      page.waitForEvent("filechooser"),
      page.getByRole("button", { name: "Import JSON" }).click(),
    ]);
    await chooser.setFiles(bogus);
    await page.getByText(/This is not a console history export/).waitFor();
    expect(await rowCount()).toBe(6);

    // An export edited to hold a full card number is masked on the way in.
    const document = JSON.parse(readFileSync(exportFile, "utf8")) as {
      runs: {
        id: string;
        exchange: { id: string; operation: string; request: { body: { data: { card_number: string } } } };
      }[];
    };
    const first = document.runs.find((run) => run.exchange.operation === "gift_balance_inquiry")!;
    first.id = first.exchange.id = "edited-run";
    first.exchange.request.body.data.card_number = ACTIVE_CARD;
    const edited = path.join(os.tmpdir(), `history-edited-${process.pid}.json`);
    writeFileSync(edited, JSON.stringify(document));
    const [again] = await Promise.all([
      page.waitForEvent("filechooser"),
      page.getByRole("button", { name: "Import JSON" }).click(),
    ]);
    await again.setFiles(edited);
    await expect.poll(rowCount).toBe(7);
    const stored = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open("card-services-console");
          open.onsuccess = () => {
            const request = open.result.transaction("runs").objectStore("runs").getAll();
            request.onsuccess = () => resolve(JSON.stringify(request.result));
          };
        }),
    );
    expect(stored).not.toContain(ACTIVE_CARD);
  });
});
