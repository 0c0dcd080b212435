/**
 * The request editor of /inquiry in Chromium against the embedded sandbox: "Edit request" shows what the form
 * would send, a refused header is flagged before sending, a malformed body goes out and the sandbox's 400 shows
 * in the exchange view (the card masked), History keeps the run and replays it as a free-form request, a
 * pasted cURL command fills the editor, and the editor fits 1440 and 390 px in both themes (screenshots in
 * test-results/screenshots).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@/test/support/console-server";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";
import { screenshotPath } from "@/test/support/browser";
import {
  axeViolations,
  forceTheme,
  historyCount,
  overflowsHorizontally,
  storedRuns,
  transitionsFinished,
} from "./console-support";

const ACTIVE_CARD = "6006491000000001";

let server: ConsoleServer;
let page: Page;
let session: ConsolePage;

const editor = () => page.getByRole("form", { name: "Request editor" });
const result = () => page.getByRole("region", { name: /^(Gift Balance Inquiry|Balance Inquiry)$/ });

async function openEditor(): Promise<void> {
  await page.goto(`${server.url}/inquiry`);
  await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
  await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
  await page.getByRole("button", { name: "Edit request" }).click();
  await editor().waitFor();
}

async function send(): Promise<void> {
  const response = page.waitForResponse((candidate) => candidate.url().endsWith("/api/requests"));
  await editor().getByRole("button", { name: "Send request" }).click();
  await response;
}

describe("the request editor", () => {
  beforeAll(async () => {
    session = await openConsolePage({
      context: { viewport: { width: 1440, height: 1000 }, reducedMotion: "reduce" },
      demo: true,
    });
    ({ server, page } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("shows the form's request, flags a refused header, sends a malformed body and shows the 400", async () => {
    await openEditor();
    expect(await editor().getByLabel("Operation").inputValue()).toBe("balance_inquiry");
    expect(await editor().getByLabel("Header 1 name").inputValue()).toBe("Content-Type");
    expect(await editor().getByLabel("Header 1 value").inputValue()).toBe("application/json");
    expect(await editor().getByLabel("Header 2 name").inputValue()).toBe("Accept");
    expect(
      await editor()
        .getByLabel(/^Authorization value/)
        .isDisabled(),
    ).toBe(true);
    const body = editor().getByRole("textbox", { name: "Body" });
    expect(JSON.parse(await body.inputValue())).toEqual({
      data: {
        entry_mode: "keyed",
        card_number: ACTIVE_CARD,
        pin_mode: "none",
        originator: { location_id: "store-001" },
      },
    });

    await editor().getByRole("button", { name: "Add header" }).click();
    await editor().getByLabel("Header 3 name").fill("Cookie");
    await editor().getByLabel("Header 3 value").fill("a=b");
    await editor().getByText("The header Cookie cannot be set").waitFor();
    expect(await editor().getByRole("button", { name: "Send request" }).isDisabled()).toBe(true);
    await editor().getByLabel("Header 3 name").fill("X-Trace");
    await expect.poll(() => editor().getByRole("button", { name: "Send request" }).isDisabled()).toBe(false);

    const before = await historyCount(page);
    await body.fill(`{"data": {"card_number": "${ACTIVE_CARD}", "pin_mode": `);
    await send();
    await result().getByText("400 Bad Request").first().waitFor();
    const raw = page.getByRole("region", { name: "Request and response" });
    await raw.getByText("Request", { exact: true }).click();
    const sent = await raw.getByRole("group", { name: "Request body" }).textContent();
    expect(sent).toContain('{"data": {"card_number": "600649******0001", "pin_mode": ');
    expect(await raw.textContent()).toContain("X-Trace");
    // The editor still holds what was typed; the answer shows the card masked only.
    expect(await result().textContent()).not.toContain(ACTIVE_CARD);
    expect(await raw.textContent()).not.toContain(ACTIVE_CARD);

    await expect.poll(() => historyCount(page)).toBe(before + 1);
    const kept = (await storedRuns(page)).find((run) => run.status === 400);
    expect(kept).toMatchObject({ operation: "balance_inquiry" });
    await page.goto(`${server.url}/history`);
    const table = await page.getByTestId("history-table").innerText();
    expect(table).toContain("400");
    expect(table).not.toContain(ACTIVE_CARD);
  });

  it("fills the editor from a pasted cURL command, and says what it cannot read", async () => {
    await openEditor();
    await editor().getByRole("button", { name: "Paste a cURL command" }).click();
    const curl = editor().getByRole("textbox", { name: "cURL command" });
    await curl.fill("wget https://example.com");
    await editor().getByRole("button", { name: "Fill the editor" }).click();
    await editor().getByText("This is not a curl command.").waitFor();
    await curl.fill(
      `curl -X POST '${server.url}/sandbox/transaction/v1/gift/balance-inquiry' \\\n` +
        `  -H 'Content-Type: application/json' -H "Authorization: Bearer x.y.z" -H 'X-Request-Id: curl-req-1' \\\n` +
        `  --data-raw '{"data":{"entry_mode":"keyed","card_number":"${ACTIVE_CARD}","pin_mode":"none","originator":{"location_id":"s"}}}'`,
    );
    await editor().getByRole("button", { name: "Fill the editor" }).click();
    await editor().getByText("Authorization was left out").waitFor();
    expect(await editor().getByLabel("Operation").inputValue()).toBe("gift_balance_inquiry");
    expect(await editor().getByLabel("Header 2 value").inputValue()).toBe("curl-req-1");
    await send();
    await result().getByText("201 Created").first().waitFor();
    expect(await result().textContent()).toContain("curl-req-1");
  });

  it("is replayed from History as a free-form request, with a fresh Request Id", async () => {
    await page.goto(`${server.url}/history`);
    const row = page.getByTestId("history-table").locator("tbody tr").first();
    await row.getByText("free-form").waitFor();
    await page.getByRole("button", { name: /^Replay Gift Balance Inquiry 600649\*{6}0001/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("as a free-form request").waitFor();
    expect(await dialog.getByLabel(/Reuse the same Request Id/).isChecked()).toBe(false);
    await dialog.getByLabel("Card number").fill(ACTIVE_CARD);
    const sent = page.waitForRequest((request) => request.url().endsWith("/api/requests"));
    await dialog.getByRole("button", { name: "Replay Gift Balance Inquiry" }).click();
    const body = JSON.parse((await sent).postData() ?? "{}") as {
      headers: Record<string, string>;
      body: string;
    };
    expect(body.headers["X-Request-Id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.headers["Content-Type"]).toBe("application/json");
    expect(body.body).toContain(`"card_number":"${ACTIVE_CARD}"`);
    await dialog.getByTestId("replay-result").waitFor({ timeout: 20_000 });
    expect(await dialog.getByTestId("replay-result").innerText()).toContain("201 Created");
  });

  it("remembers the Code panel's language across a reload", async () => {
    const codeOfResult = async () => {
      await openEditor();
      await send();
      await page.getByText("cURL, Python, Java, Go and more").click();
      return page.getByTestId("code-snippet");
    };
    let snippet = await codeOfResult();
    await page.getByRole("combobox", { name: "Language" }).selectOption("python");
    await expect.poll(() => snippet.getAttribute("data-language")).toBe("python");
    await page.reload();
    snippet = await codeOfResult();
    await expect.poll(() => snippet.getAttribute("data-language")).toBe("python");
    expect(await snippet.textContent()).toContain("import urllib.request");
    expect(await page.getByRole("combobox", { name: "Language" }).inputValue()).toBe("python");
    // Back to the default for the tests after this one.
    await page.getByRole("combobox", { name: "Language" }).selectOption("shell");
  });

  it("fits 1440 and 390 px in both themes", async () => {
    await openEditor();
    await editor().getByRole("button", { name: "Add header" }).click();
    await editor().getByLabel("Header 3 name").fill("Connection");
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 1000 });
      for (const theme of ["light", "dark"] as const) {
        await forceTheme(page, theme);
        await transitionsFinished(page);
        expect(await overflowsHorizontally(page), `${width} ${theme}`).toBe(false);
        await editor().screenshot({ path: screenshotPath(`request-editor-${width}-${theme}`) });
        expect(await axeViolations(page), `${width} ${theme}`).toEqual([]);
      }
    }
  });
});
