/**
 * Code runs as copied from every place the console offers it (docs/design.md §12): the Code panel after a form
 * run and after a free-form run, an imported History entry, and a Team run on a team console whose public
 * origin (PUBLIC_URL, http://localhost:<port>) is not the address it listens on (127.0.0.1). Each text is taken
 * from the clipboard after "Copy code", with and without "Unmask the card in copied code" where it is offered,
 * and run in its language against the console; it must answer the operation's success status.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeLanguage } from "@/lib/shared/code-languages";
import { downloadText, launchBrowser } from "@/test/support/browser";
import { freePort, type ConsoleServer } from "@/test/support/console-server";
import { SHORT_RUN_JVM_FLAGS } from "@/test/support/jvm";
import { fileTempDir } from "@/test/support/temp-dirs";
import { newPage, openConsolePage, type ConsolePage } from "@/test/support/pages";
import { proxyIdentity, startProxyConsole } from "@/test/support/proxy-console";

const run = promisify(execFile);
const ACTIVE_CARD = "6006491000000001";
const DEMO = { CLIENT_ID: "demo-client", CLIENT_SECRET: "demo-secret" };

const RUNNERS: Partial<
  Record<CodeLanguage, { file: string; command: (file: string) => [string, string[]] }>
> = {
  shell: { file: "request.sh", command: (file) => ["sh", [file]] },
  node: { file: "request.mjs", command: (file) => [process.execPath, [file]] },
  python: { file: "request.py", command: (file) => ["python3", [file]] },
  ruby: { file: "request.rb", command: (file) => ["ruby", [file]] },
  go: { file: "main.go", command: (file) => ["go", ["run", file]] },
  java: { file: "Main.java", command: (file) => ["java", [...SHORT_RUN_JVM_FLAGS, file]] },
};

/** Runs copied code as its reader would; returns the status it printed (curl's status line, or the first line). */
async function runCopied(language: CodeLanguage, code: string, env: Record<string, string>): Promise<number> {
  const runner = RUNNERS[language]!;
  const folder = fileTempDir(`copied-${language}-`);
  writeFileSync(path.join(folder, runner.file), code);
  const [command, args] = runner.command(runner.file);
  const clean = { ...process.env };
  for (const name of ["ACCESS_TOKEN", "CARD_NUMBER", "CLIENT_ID", "CLIENT_SECRET"]) delete clean[name];
  const { stdout } = await run(command, args, { cwd: folder, env: { ...clean, ...env }, timeout: 300_000 });
  const match = /^(?:HTTP\/[\d.]+ )?(\d{3})\b/m.exec(stdout);
  if (!match) throw new Error(`no status in the output:\n${stdout}`);
  return Number(match[1]);
}

async function accessToken(origin: string): Promise<string> {
  const response = await fetch(`${origin}/sandbox/reporting/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_id: DEMO.CLIENT_ID,
      client_secret: DEMO.CLIENT_SECRET,
      grant_type: "client_credentials",
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { attributes: { access_token: string } } }).data.attributes
    .access_token;
}

/** "Copy code" in `language` from an exchange view, unmasked or not; the clipboard's text, as the panel shows it. */
async function copyCode(
  page: Page,
  view: Locator,
  language: CodeLanguage,
  unmask?: boolean,
): Promise<string> {
  const snippet = view.getByTestId("code-snippet");
  if (!(await snippet.isVisible())) await view.getByText("cURL, Python, Java, Go and more").click();
  await view.getByRole("combobox", { name: "Language" }).selectOption(language);
  await expect.poll(() => snippet.getAttribute("data-language")).toBe(language);
  if (unmask !== undefined)
    await view.getByRole("checkbox", { name: "Unmask the card in copied code" }).setChecked(unmask);
  await view.getByRole("button", { name: "Copy code" }).click();
  const shown = (await snippet.textContent()) ?? "";
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  return shown;
}

describe("copied code runs on the default console", () => {
  let session: ConsolePage;
  let page: Page;
  let server: ConsoleServer;
  let token: string;
  let exported = "";

  beforeAll(async () => {
    session = await openConsolePage({ demo: true, context: { viewport: { width: 1440, height: 1000 } } });
    ({ page, server } = session);
    await session.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    token = await accessToken(server.url);
  });
  afterAll(async () => {
    await session?.close();
  });

  /**
   * The exchange's code copied and run twice: in `masked`, reading the card from CARD_NUMBER, and in `unmasked`,
   * with the card in it; each answers `status`.
   */
  async function expectCopiesRun(
    view: Locator,
    masked: CodeLanguage,
    unmasked: CodeLanguage,
    status: number,
  ) {
    const withVariable = await copyCode(page, view, masked, false);
    expect(withVariable).not.toContain(ACTIVE_CARD);
    expect(await runCopied(masked, withVariable, { ACCESS_TOKEN: token, CARD_NUMBER: ACTIVE_CARD })).toBe(
      status,
    );
    const withCard = await copyCode(page, view, unmasked, true);
    expect(withCard).toContain(ACTIVE_CARD);
    expect(await runCopied(unmasked, withCard, { ACCESS_TOKEN: token })).toBe(status);
  }

  it("after a form run: Ruby with CARD_NUMBER, Python unmasked", async () => {
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Gift Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await page.getByRole("button", { name: "Run Gift Balance Inquiry" }).click();
    const view = page.getByRole("region", { name: "Request and response" });
    await view.waitFor();

    await expectCopiesRun(view, "ruby", "python", 201);
  });

  it("after a free-form run with a header and a field added: cURL with CARD_NUMBER, Go unmasked", async () => {
    await page.goto(`${server.url}/inquiry`);
    await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill(ACTIVE_CARD);
    await page.getByRole("button", { name: "Edit request" }).click();
    const editor = page.getByRole("form", { name: "Request editor" });
    await editor.getByRole("button", { name: "Add header" }).click();
    await editor.getByLabel("Header 3 name").fill("X-Trace");
    await editor.getByLabel("Header 3 value").fill(`it's "$(id)" #{1}`);
    const body = editor.getByRole("textbox", { name: "Body" });
    const value = JSON.parse(await body.inputValue()) as Record<string, unknown>;
    await body.fill(JSON.stringify({ ...value, note: "#{`id`} ${1} '\"" }, null, 2));
    const response = page.waitForResponse((candidate) => candidate.url().endsWith("/api/requests"));
    await editor.getByRole("button", { name: "Send request" }).click();
    expect((await response).status()).toBe(200);
    const view = page.getByRole("region", { name: "Request and response" });
    await view.waitFor();

    await expectCopiesRun(view, "shell", "go", 200);
  });

  it("from an imported History entry: Node with CARD_NUMBER, cURL fetching its own token", async () => {
    await page.goto(`${server.url}/history`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export JSON" }).click(),
    ]);
    exported = path.join(fileTempDir("copied-history-"), "history.json");
    writeFileSync(exported, await downloadText(download));

    // Another browser: its History holds only what it imports.
    const { context, page: other } = await newPage(session.browser, {
      viewport: { width: 1440, height: 1000 },
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await other.goto(`${server.url}/history`);
    const [chooser] = await Promise.all([
      other.waitForEvent("filechooser"),
      other.getByRole("button", { name: "Import JSON" }).click(),
    ]);
    await chooser.setFiles(exported);
    await other.getByText(/Imported \d+ runs? from/).waitFor();
    await other
      .getByRole("button", { name: /^Open Gift Balance Inquiry 600649\*{6}0001/ })
      .first()
      .click();
    const view = other.getByRole("dialog").getByRole("region", { name: "Request and response" });
    await view.waitFor();
    // An imported run has no typed card to unmask: the code reads CARD_NUMBER.
    expect(await view.getByRole("checkbox", { name: "Unmask the card in copied code" }).count()).toBe(0);
    const node = await copyCode(other, view, "node");
    expect(await runCopied("node", node, { ACCESS_TOKEN: token, CARD_NUMBER: ACTIVE_CARD })).toBe(201);
    await view.getByRole("combobox", { name: "Language" }).selectOption("shell");
    await view.getByRole("checkbox", { name: "With token request" }).check();
    const curl = await copyCode(other, view, "shell");
    expect(curl).toContain("/reporting/v1/auth/token");
    expect(await runCopied("shell", curl, { ...DEMO, CARD_NUMBER: ACTIVE_CARD })).toBe(201);
    await context.close();
  });
});

describe("copied code runs from a Team run on a team console behind its public origin", () => {
  const identity = proxyIdentity("code-runs-proxy-secret");
  let server: ConsoleServer;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = await startProxyConsole({
      secret: "code-runs-proxy-secret",
      roleGroups: "engineer:developers",
      env: {
        PORT: String(port),
        PUBLIC_URL: origin,
        CARD_API_CLIENT_ID: DEMO.CLIENT_ID,
        CARD_API_CLIENT_SECRET: DEMO.CLIENT_SECRET,
        AUDIT_HMAC_KEY: "code-runs-test-audit-hmac-key-of-32-characters",
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("Java and Python, with CARD_NUMBER, answer 201 at the public origin", async () => {
    const browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: { width: 1440, height: 1000 },
      extraHTTPHeaders: identity("eve", "developers"),
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/history`);
      const requestId = `code-runs-${Date.now()}`;
      const status = await page.evaluate(
        async ({ card, requestId }) => {
          const response = await fetch("/api/inquiries/gift-balance", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              card_number: card,
              location_id: "store-7",
              request_id: requestId,
              environment: "embedded",
            }),
          });
          return response.status;
        },
        { card: ACTIVE_CARD, requestId },
      );
      expect(status).toBe(200);
      await page.reload();
      const team = page.getByRole("region", { name: "Team runs" });
      await team.getByLabel("Request Id").fill(requestId);
      await team.getByRole("button", { name: "Search" }).click();
      await team
        .getByRole("link", { name: /^Open the Gift Balance Inquiry run/ })
        .first()
        .click();
      const view = team.getByRole("region", { name: "Team run: request and response" });
      await view.waitFor();
      const token = await accessToken(origin);

      const python = await copyCode(page, view, "python");
      expect(python).toContain(`${origin}/sandbox/`);
      expect(python).not.toContain("127.0.0.1");
      expect(await runCopied("python", python, { ACCESS_TOKEN: token, CARD_NUMBER: ACTIVE_CARD })).toBe(201);
      const java = await copyCode(page, view, "java");
      expect(await runCopied("java", java, { ACCESS_TOKEN: token, CARD_NUMBER: ACTIVE_CARD })).toBe(201);
    } finally {
      await browser.close();
    }
  });
});
