/**
 * The compare page in Chromium against the embedded sandbox: "Run both" fills the API specification §4.5 table with live
 * values (201 vs 200, gift 25.00 equals balances.gift) and saves both runs; the diff of two history
 * entries is purse-aware and hides volatile fields unless asked.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "@/test/support/browser";
import { freePort, startConsole, type ConsoleServer } from "@/test/support/console-server";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { historyCount } from "./console-support";

const ACTIVE_CARD = "6006491000000001";
const EMPTY_CARD = "6006491000000019";

let server: ConsoleServer;
let browser: Browser;
let page: Page;
let session: ConsolePage;

/** Text of a spec-table cell: the row is a behaviour, the column 0–4 (behaviour, spec, live, spec, live). */
async function specCell(target: Page, rowId: string, column: number): Promise<string> {
  return (await target.locator(`tr[data-row="${rowId}"] > *`).nth(column).innerText()).trim();
}

/**
 * Runs both operations and waits until both runs and the gift run's lookup by Request Id are in history (so a
 * second call cannot see the first).
 */
async function runBoth(target: Page, card: string) {
  const before = await historyCount(target);
  await target.getByLabel("Card number").fill(card);
  await target.getByRole("button", { name: /^Run both/ }).click();
  await expect.poll(() => historyCount(target), { timeout: 20_000 }).toBe(before + 3);
  await target.getByTestId("gift-check").waitFor();
}

describe("compare page", () => {
  beforeAll(async () => {
    session = await openConsolePage({ context: { viewport: { width: 1280, height: 900 } }, demo: true });
    ({ server, browser, page } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("before a run, shows the specification's promises with nothing filled in", async () => {
    await page.goto(`${server.url}/compare`);
    const table = page.getByRole("table", { name: /API specification §4\.5/ });
    await table.waitFor();
    expect(await specCell(page, "status", 1)).toBe("201");
    expect(await specCell(page, "status", 3)).toBe("200");
    expect(await specCell(page, "status", 2)).toContain("not run");
  });

  it("runs both operations for one card: 201 vs 200, and the gift balance 25.00 equals balances.gift", async () => {
    await page.goto(`${server.url}/compare`);
    const before = await historyCount(page);
    await runBoth(page, ACTIVE_CARD);

    expect(await specCell(page, "status", 2)).toContain("201");
    expect(await specCell(page, "status", 4)).toContain("200");
    expect(await specCell(page, "transaction", 2)).toMatch(/yes, transaction_id [0-9a-f-]{36}/);
    expect(await specCell(page, "transaction", 4)).toContain("no transaction_id");
    expect(await specCell(page, "balance", 2)).toContain("balance 25.00");
    expect(await specCell(page, "balance", 4)).toContain("balances with 8 of 8 purses");
    expect(await specCell(page, "result", 2)).toContain("approved, transaction_approved");
    expect(await specCell(page, "result", 4)).toContain("none");
    // Findable by Request Id and in history: verified by the lookup of the gift run's Request Id.
    for (const row of ["request_id", "history"]) {
      expect(await specCell(page, row, 2)).toMatch(
        /yes, lookup by \S+ answered 200 with this transaction_id/,
      );
      expect(await page.locator(`tr[data-row="${row}"] [title='matches the specification']`).count()).toBe(1);
      // A Balance Inquiry sends no Request Id: its side stays inferred.
      expect(await page.locator(`tr[data-row="${row}"] [title$='(inferred)']`).count()).toBe(1);
    }
    const lookup = page.getByRole("region", { name: /Lookup Transaction by Request Id/ });
    expect(await lookup.getByTestId("lookup-result").innerText()).toMatch(
      /Found by Request Id\s+200 OK[\s\S]*the same transaction[\s\S]*specification does not show the real one/,
    );
    expect(await lookup.innerText()).toContain("/transaction/v1/transactions/request-id/");
    // Every live cell is judged: none differs from the specification.
    expect(await page.locator("tr[data-row] [title='differs from the specification']").count()).toBe(0);

    expect(await page.getByTestId("gift-check").innerText()).toContain(
      "The Gift balance 25.00 equals balances.gift 25.00.",
    );
    expect(await page.getByTestId("spec-verdict").innerText()).toContain("Conforms to the specification.");
    expect(await page.getByTestId("gift-balance").innerText()).toBe("25.00");
    const purses = page.getByRole("table", { name: "Balances by purse" }).locator("tbody tr");
    expect(await purses.count()).toBe(8);
    expect(await purses.first().innerText()).toMatch(/Gift\s*gift\s+= Gift Balance Inquiry\s*25\.00/);

    // The card is shown masked, never in full, once the run is done.
    expect(await page.locator("main").innerText()).toContain("600649******0001");
    // Both runs and the lookup were saved to history.
    await expect.poll(() => historyCount(page)).toBe(before + 3);
  });

  it("rejects a card number that is not 12 to 19 digits, without calling the API", async () => {
    await page.goto(`${server.url}/compare`);
    const before = await historyCount(page);
    await page.getByLabel("Card number").fill("1234");
    await page.getByRole("button", { name: /^Run both/ }).click();
    await page.getByText("Enter 12 to 19 digits.").waitFor();
    expect(await page.getByLabel("Card number").getAttribute("aria-invalid")).toBe("true");
    expect(await historyCount(page)).toBe(before);
  });

  it("shows an inactive card's declined gift inquiry next to its balances", async () => {
    await page.goto(`${server.url}/compare`);
    await runBoth(page, "6006491000000027");
    expect(await specCell(page, "result", 2)).toContain("declined, card_inactive");
    expect(await specCell(page, "status", 4)).toContain("200");
    expect(await page.getByTestId("gift-check").innerText()).toContain(
      "The Gift Balance Inquiry was declined card_inactive: its balance 0.00 is not compared with balances.gift 10.00.",
    );
  });

  it("diffs the two runs of 'Run both': only the Gift purse is comparable", async () => {
    await page.goto(`${server.url}/compare`);
    await runBoth(page, ACTIVE_CARD);
    await page.getByRole("button", { name: "Diff these two runs" }).click();
    await page.getByRole("tab", { name: "Diff two runs", selected: true }).waitFor();
    expect(page.url()).toMatch(/view=diff&a=[^&]+&b=[^&]+/);

    const facts = page.getByRole("table").filter({ hasText: "HTTP status" });
    expect(await facts.locator("tr", { hasText: "HTTP status" }).innerText()).toMatch(/201\s+200/);
    const gift = page.locator('[data-testid="purse-diff"] tr[data-purse="gift"]');
    expect(await gift.innerText()).toMatch(/25\.00\s+25\.00\s+±0\.00\s+same/);
    const loyalty = page.locator('[data-testid="purse-diff"] tr[data-purse="loyalty"]');
    expect(await loyalty.innerText()).toMatch(/120\.00\s+±?\S*\s*not reported/);
    expect(await page.getByText(/different operations/).count()).toBeGreaterThan(0);
  });

  it("diffs two history entries purse by purse and hides volatile fields unless asked", async () => {
    await page.goto(`${server.url}/compare`);
    await runBoth(page, EMPTY_CARD);
    await page.getByRole("tab", { name: "Diff two runs" }).click();

    // A: the Balance Inquiry of the active card; B: the newest Balance Inquiry (the empty card).
    const options = await page.getByLabel("A (before)").locator("option").allInnerTexts();
    const activeBalance = options.find((text) => text.includes("· Balance Inquiry · 600649******0001 · 200"));
    const emptyBalance = options.find((text) => text.includes("· Balance Inquiry · 600649******0019 · 200"));
    expect(activeBalance && emptyBalance).toBeTruthy();
    await page.getByLabel("A (before)").selectOption({ label: activeBalance! });
    await page.getByLabel("B (after)").selectOption({ label: emptyBalance! });

    const row = (purse: string) => page.locator(`[data-testid="purse-diff"] tr[data-purse="${purse}"]`);
    // The table shows the newest pair until the choice re-renders it: wait for the chosen pair's figures.
    await expect.poll(() => row("gift").innerText()).toMatch(/25\.00\s+0\.00\s+-25\.00\s+changed/);
    expect(await row("loyalty").innerText()).toMatch(/120\.00\s+0\.00\s+-120\.00\s+changed/);
    expect(await row("discount").innerText()).toMatch(/0\.00\s+0\.00\s+±0\.00\s+same/);
    expect(await page.getByText(/different cards/).count()).toBeGreaterThan(0);

    const fields = page.getByTestId("field-diff");
    expect(await fields.locator("tr[data-field='response.body.data.balances.gift']").count()).toBe(1);
    expect(await fields.locator("tr[data-field='response.body.data.system_time']").count()).toBe(0);
    expect(await page.getByTestId("field-diff-summary").innerText()).toMatch(/volatile differences? hidden/);

    await page.getByLabel("Show volatile fields").check();
    await fields.locator("tr[data-field='response.body.data.system_time']").waitFor();
    // Two runs made one after the other always differ in started_at (durations may happen to be equal).
    expect(await fields.locator("tr[data-field='record.started_at']").count()).toBe(1);
    await page.getByLabel("Show volatile fields").uncheck();
  });

  it("two runs of the same inquiry match apart from volatile fields", async () => {
    await page.goto(`${server.url}/compare`);
    await runBoth(page, ACTIVE_CARD);
    await runBoth(page, ACTIVE_CARD);
    // With no pair chosen, the diff takes the newest run and the previous one of the same operation and card.
    await page.getByRole("tab", { name: "Diff two runs" }).click();
    await page.getByTestId("diff-verdict").waitFor();
    expect(await page.getByTestId("diff-verdict").innerText()).toBe(
      "The responses match, apart from volatile fields.",
    );
    expect(await page.getByText("No differences apart from volatile fields").count()).toBe(1);

    await page.getByLabel("Show volatile fields").check();
    const fields = page.getByTestId("field-diff");
    await fields.locator("tr[data-field='record.started_at']").first().waitFor();
    // Two runs always differ in their id and start time; durations, token events and the sandbox's clock may
    // happen to coincide, so how many more rows there are is not fixed. Every row shown is a volatile one.
    expect(await fields.locator("tr[data-field='record.id']").count()).toBe(1);
    const rows = fields.locator("tr[data-field]");
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    expect(await rows.filter({ hasText: "volatile" }).count()).toBe(await rows.count());
  });

  it("shows each side's console error through the error alert, with its code and what to do", async () => {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const unconnected = await fresh.newPage();
    await unconnected.goto(`${server.url}/compare`);
    await unconnected.getByText("Not connected").first().waitFor();
    await unconnected.getByLabel("Card number").fill(ACTIVE_CARD);
    await unconnected.getByRole("button", { name: /^Run both/ }).click();
    for (const side of ["Gift Balance Inquiry", "Balance Inquiry"]) {
      const alert = unconnected.getByRole("region", { name: side, exact: true }).getByTestId("api-error");
      await alert.getByText("Connect first").waitFor();
      const text = await alert.innerText();
      expect(text).toContain("HTTP 401 · no_credentials");
      expect(text).toContain("This session has no credentials yet");
      expect(await alert.getByRole("link", { name: "Go to Connect" }).count()).toBe(1);
    }
    await fresh.close();
  });
});

describe("compare page against a sandbox and a production upstream", () => {
  let upstream: SandboxServer;
  let console2: ConsoleServer;
  let browser2: Browser;
  let page2: Page;

  async function api(method: string, route: string, body?: unknown): Promise<number> {
    return page2.evaluate(
      async ({ method, route, body }) =>
        (
          await fetch(route, {
            method,
            headers: { "Content-Type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          })
        ).status,
      { method, route, body },
    );
  }

  beforeAll(async () => {
    // One standalone sandbox plays both instances: the spec's one token works against both.
    upstream = await startSandboxServer({ port: await freePort() });
    console2 = await startConsole({
      CARD_API_AUTH_URL: upstream.url,
      CARD_API_SANDBOX_URL: upstream.url,
      CARD_API_PRODUCTION_URL: upstream.url,
    });
    browser2 = await launchBrowser();
    page2 = await (await browser2.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page2.goto(`${console2.url}/compare`);
    expect(
      await api("PUT", "/api/session/credentials", {
        client_id: "demo-client",
        client_secret: "demo-secret",
      }),
    ).toBeLessThan(300);
  });

  afterAll(async () => {
    await browser2?.close();
    await console2?.stop();
    await upstream?.close();
  });

  it("asks before a Gift Balance Inquiry in production, and diffs sandbox against production", async () => {
    expect(await api("PUT", "/api/session/environment", { environment: "sandbox" })).toBeLessThan(300);
    await page2.goto(`${console2.url}/compare`);
    await runBoth(page2, ACTIVE_CARD);
    expect(await page2.getByTestId("gift-check").innerText()).toContain("equals balances.gift 25.00");

    expect(await api("PUT", "/api/session/environment", { environment: "production" })).toBeLessThan(300);
    await page2.goto(`${console2.url}/compare`);
    const before = await historyCount(page2);
    await page2.getByLabel("Card number").fill(ACTIVE_CARD);
    await page2.getByRole("button", { name: /^Run both/ }).click();
    const confirm = page2.getByRole("dialog", { name: "Run a Gift Balance Inquiry in production?" });
    await confirm.waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await historyCount(page2)).toBe(before);

    await page2.getByRole("button", { name: /^Run both/ }).click();
    await confirm.getByRole("button", { name: "Run both in production" }).click();
    await expect.poll(() => historyCount(page2), { timeout: 20_000 }).toBe(before + 3);
    await page2.getByTestId("gift-check").waitFor();
    expect(await specCell(page2, "status", 2)).toContain("201");

    await page2.getByRole("tab", { name: "Diff two runs" }).click();
    const options = await page2.getByLabel("A (before)").locator("option").allInnerTexts();
    const sandboxBalance = options.find((text) =>
      text.endsWith("Balance Inquiry · 600649******0001 · 200 · sandbox"),
    );
    const productionBalance = options.find((text) =>
      text.endsWith("Balance Inquiry · 600649******0001 · 200 · production"),
    );
    expect(sandboxBalance && productionBalance).toBeTruthy();
    await page2.getByLabel("A (before)").selectOption({ label: sandboxBalance! });
    await page2.getByLabel("B (after)").selectOption({ label: productionBalance! });
    await page2.getByTestId("diff-verdict").waitFor();
    const environment = page2.getByRole("row", { name: /Environment/ });
    expect(await environment.innerText()).toMatch(/sandbox\s+production/);
    expect(await page2.getByTestId("diff-verdict").innerText()).toBe(
      "The responses match, apart from volatile fields.",
    );
    expect(await page2.locator('[data-testid="purse-diff"] tr[data-purse="gift"]').innerText()).toMatch(
      /25\.00\s+25\.00\s+±0\.00\s+same/,
    );
  });
});
