/**
 * The console's central promise (docs/design.md §1): the browser never receives a client secret, an access token
 * or the session password, and full card numbers are masked in everything after entry. This test runs the
 * main flows in Chromium, captures everything the browser received or kept and everything the server
 * logged, and searches it all for:
 * - a client secret of its own (the shared console's demo secret, so it is really used),
 * - any JWT (three base64url segments starting `eyJ`),
 * - the SESSION_SECRET,
 * - every full test card number of docs/design.md §5, and an unknown card number that was typed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadText, launchBrowser, waitFor } from "@/test/support/browser";
import { sharedConsole, type ConsoleServer } from "@/test/support/console-server";
import { SHARED_CONSOLE_PROFILES } from "@/test/support/shared-consoles";
import { pressEnterToSubmit } from "./console-support";

const { SANDBOX_DEMO_SECRET: SENTINEL_SECRET, SESSION_SECRET } = SHARED_CONSOLE_PROFILES["short-timeout"];
const TEST_CARDS = [
  "6006491000000001",
  "6006491000000019",
  "6006491000000027",
  "6006491000000035",
  "6006491000000043",
  "6006491000000050",
  "6006491000000068",
];
const UNKNOWN_CARD = "6006499876543210";
/** Cards run through both inquiries; the slow one ends in the console's (shortened) timeout. */
const RUN_CARDS = [...TEST_CARDS, UNKNOWN_CARD];
const PAGES = [
  "/",
  "/sandbox",
  "/connect",
  "/token",
  "/inquiry",
  "/compare",
  "/history",
  "/support",
  "/certification",
  "/audit",
];

interface Forbidden {
  name: string;
  pattern: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A card number also counts when written in groups ("6006 4910 0000 0001" or with dashes). */
function cardPattern(card: string): RegExp {
  return new RegExp(`(?<!\\d)${card.split("").join("[ -]?")}(?!\\d)`);
}

const FORBIDDEN: Forbidden[] = [
  { name: "client secret", pattern: new RegExp(escapeRegExp(SENTINEL_SECRET)) },
  { name: "SESSION_SECRET", pattern: new RegExp(escapeRegExp(SESSION_SECRET)) },
  { name: "JWT", pattern: /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/ },
  ...[...TEST_CARDS, UNKNOWN_CARD].map((card) => ({
    name: `full card number ${card}`,
    pattern: cardPattern(card),
  })),
];

interface Captured {
  /** Where it came from: "response document http://…", "localStorage", "server log", … */
  source: string;
  text: string;
}

/**
 * The sandbox reference page publishes the sandbox's fixture test cards (docs/design.md §5) so people can copy
 * them: they are documentation, not card numbers anyone entered. On that page only those numbers are allowed;
 * secrets, tokens and any typed card number are still forbidden there.
 */
const TEST_CARD_PATTERNS = new Set(TEST_CARDS.map((card) => `full card number ${card}`));
function isSandboxReferencePage(source: string): boolean {
  return /^(document|rsc) \d+ GET \/sandbox(\?|$)/.test(source);
}
function forbiddenFor(source: string): Forbidden[] {
  return isSandboxReferencePage(source)
    ? FORBIDDEN.filter(({ name }) => !TEST_CARD_PATTERNS.has(name))
    : FORBIDDEN;
}

/** Every forbidden value found, as "<source>: <what> in …context…". */
function findLeaks(items: readonly Captured[]): string[] {
  const findings: string[] = [];
  for (const item of items) {
    for (const { name, pattern } of forbiddenFor(item.source)) {
      const match = pattern.exec(item.text);
      if (!match) continue;
      const start = Math.max(0, match.index - 60);
      const context = item.text.slice(start, match.index + match[0].length + 60).replace(/\s+/g, " ");
      findings.push(`${item.source}: ${name} in …${context}…`);
    }
  }
  return findings;
}

function listFiles(directory: string): string[] {
  try {
    return readdirSync(directory).flatMap((name) => {
      const full = path.join(directory, name);
      return statSync(full).isDirectory() ? listFiles(full) : [full];
    });
  } catch {
    return [];
  }
}

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const responses: Captured[] = [];
const pendingCaptures: Promise<void>[] = [];
const storage: Captured[] = [];
let exported: Captured | null = null;
/** History's exports for other tools: a Postman collection and HAR. */
const toolExports: Captured[] = [];

function kindOf(url: URL, resourceType: string, requestHeaders: Record<string, string>): string {
  if (url.pathname.startsWith("/api/")) return "api";
  if (requestHeaders.rsc === "1" || url.searchParams.has("_rsc")) return "rsc";
  if (url.pathname.endsWith(".js")) return "script";
  return resourceType;
}

/** fetch() from inside the page: same origin, the session cookie, the Origin header a browser sends. */
async function callApi(
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, route, body }) => {
      const response = await fetch(route, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // keep the text
      }
      return { status: response.status, body: parsed };
    },
    { method, route, body },
  );
}

async function dumpBrowserStorage(target: Page): Promise<Captured[]> {
  const dump = await target.evaluate(async () => {
    const readStorage = (area: Storage) =>
      JSON.stringify(
        Object.fromEntries(
          Array.from({ length: area.length }, (_, i) => area.key(i) ?? "").map((key) => [
            key,
            area.getItem(key),
          ]),
        ),
      );
    const databases: Record<string, unknown> = {};
    let records = 0;
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const storeName of Array.from(database.objectStoreNames)) {
        const store = database.transaction(storeName, "readonly").objectStore(storeName);
        const read = <T>(request: IDBRequest<T>) =>
          new Promise<T>((resolve, reject) => {
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
        const [keys, values] = await Promise.all([read(store.getAllKeys()), read(store.getAll())]);
        records += values.length;
        databases[`${info.name}/${storeName}`] = { keys, values };
      }
      database.close();
    }
    return {
      cookie: document.cookie,
      localStorage: readStorage(localStorage),
      sessionStorage: readStorage(sessionStorage),
      indexedDB: JSON.stringify(databases),
      records,
    };
  });
  expect(dump.records, "IndexedDB should hold the runs of this test").toBeGreaterThan(0);
  return [
    { source: "document.cookie", text: dump.cookie },
    { source: "localStorage", text: dump.localStorage },
    { source: "sessionStorage", text: dump.sessionStorage },
    { source: "IndexedDB", text: dump.indexedDB },
  ];
}

describe("no secret, token or full card number reaches the browser or the server log", () => {
  beforeAll(async () => {
    // Its demo secret and session password are the sentinels; the slow test card ends in a 504 within 1.5 s.
    server = await sharedConsole("short-timeout");
    browser = await launchBrowser();
    context = await browser.newContext({ acceptDownloads: true });
    context.on("response", (response) => {
      pendingCaptures.push(
        (async () => {
          const url = new URL(response.url());
          const request = response.request();
          const requestHeaders = await request.allHeaders();
          const headers = await response.allHeaders();
          let body = "";
          try {
            body = (await response.body()).toString("utf8");
          } catch {
            // redirects and aborted prefetches have no body
          }
          responses.push({
            source: `${kindOf(url, request.resourceType(), requestHeaders)} ${response.status()} ${request.method()} ${url.pathname}${url.search}`,
            text: `${JSON.stringify(headers)}\n${body}`,
          });
        })(),
      );
    });
    page = await context.newPage();

    // 1. Demo credentials, then a token.
    await page.goto(`${server.url}/connect`);
    expect((await callApi("PUT", "/api/session/credentials", { profile: "demo" })).status).toBeLessThan(300);
    expect((await callApi("POST", "/api/token", {})).status).toBe(200);

    // 2. Credentials typed by the user: demo-client with the sentinel secret, through the connect page.
    await page.goto(`${server.url}/connect`);
    await page.getByLabel(/client id/i).fill("demo-client");
    await page.getByLabel(/client secret/i).fill(SENTINEL_SECRET);
    await page
      .getByRole("button", { name: /save|connect|use these/i })
      .first()
      .click();
    await waitFor(
      async () =>
        ((await callApi("GET", "/api/session")).body as { credentials?: { client_id?: string } }).credentials
          ?.client_id,
      "demo-client",
    );

    // 3. A token through the token page.
    await page.goto(`${server.url}/token`);
    await page
      .getByRole("button", { name: /request.*token|get.*token/i })
      .first()
      .click();
    await page.waitForLoadState("networkidle");
    expect((await callApi("POST", "/api/token", {})).status).toBe(200);

    // 4. Both inquiries for every test card and an unknown card.
    for (const card of RUN_CARDS) {
      const body = { card_number: card, location_id: "leak-test" };
      const gift = await callApi("POST", "/api/inquiries/gift-balance", body);
      const balance = await callApi("POST", "/api/inquiries/balance", body);
      expect([200, 502, 504], `gift ${card}: ${JSON.stringify(gift.body)}`).toContain(gift.status);
      expect([200, 502, 504], `balance ${card}: ${JSON.stringify(balance.body)}`).toContain(balance.status);
    }

    // 5. Run both on the compare page (saved to history), for two cards.
    for (const card of ["6006491000000001", "6006491000000027"]) {
      await page.goto(`${server.url}/compare`);
      await page.getByLabel("Card number").fill(card);
      await page.getByRole("button", { name: /^Run both/ }).click();
      await page.getByTestId("gift-check").waitFor();
    }

    // 6a. The support desk: a lookup typed and run by Enter, as an agent does.
    await page.goto(`${server.url}/support`);
    await page.getByLabel("Card number", { exact: true }).fill("6006491000000001");
    await pressEnterToSubmit(page.getByLabel("Card number", { exact: true }));
    await page.getByRole("region", { name: "Lookup result" }).getByText("•••• 0001").waitFor();

    // 6b. A certification run on the server with the user's (sentinel) secret, and its evidence bundle.
    const started = await callApi("POST", "/api/certification/runs", { environment: "embedded" });
    expect(started.status).toBe(202);
    const runId = (started.body as { id: string }).id;
    await waitFor(
      async () =>
        ((await callApi("GET", `/api/certification/runs/${runId}`)).body as { status?: string }).status,
      "done",
      120_000,
    );
    expect((await callApi("GET", `/api/certification/runs/${runId}/evidence`)).status).toBe(200);

    // 6. The history page, and its export.
    await page.goto(`${server.url}/history`);
    await page.getByRole("row").nth(2).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export JSON" }).click(),
    ]);
    exported = { source: "history export", text: await downloadText(download) };
    for (const format of ["Postman", "HAR"]) {
      const [toolDownload] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: `Export ${format}` }).click(),
      ]);
      toolExports.push({ source: `history ${format} export`, text: await downloadText(toolDownload) });
    }

    // 7. Every page, with the state above; client-side navigation fetches RSC payloads.
    for (const route of PAGES) {
      await page.goto(`${server.url}${route}`);
      await page.waitForLoadState("networkidle");
    }
    storage.push(...(await dumpBrowserStorage(page)));
    await Promise.all(pendingCaptures);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("the runs really happened: the responses carry masked card numbers", () => {
    const api = responses.filter((item) => item.source.startsWith("api "));
    expect(api.length).toBeGreaterThan(RUN_CARDS.length * 2);
    expect(api.some((item) => item.text.includes("600649******0001"))).toBe(true);
    expect(api.some((item) => item.text.includes("fingerprint"))).toBe(true);
  });

  it("no page HTML or RSC payload holds a secret, token or full card number", () => {
    const documents = responses.filter((item) => /^(document|rsc) /.test(item.source));
    expect(documents.length).toBeGreaterThanOrEqual(PAGES.length);
    // The exemption above covers the sandbox reference page and nothing else.
    expect(documents.filter((item) => isSandboxReferencePage(item.source)).length).toBeGreaterThan(0);
    expect(findLeaks(documents).join("\n")).toBe("");
  });

  it("no API response (body or headers) holds a secret, token or full card number", () => {
    expect(findLeaks(responses.filter((item) => item.source.startsWith("api "))).join("\n")).toBe("");
  });

  it("no other response the browser received holds one either", () => {
    expect(findLeaks(responses.filter((item) => !/^(api|document|rsc) /.test(item.source))).join("\n")).toBe(
      "",
    );
  });

  it("no JavaScript chunk, referenced by the pages or in the build, holds one", async () => {
    const referenced = new Set<string>();
    for (const item of responses) {
      for (const match of item.text.matchAll(/\/_next\/static\/[A-Za-z0-9_\-./~%@[\]]+?\.js/g))
        referenced.add(match[0]);
    }
    expect(referenced.size).toBeGreaterThan(0);
    const chunks: Captured[] = [];
    for (const chunk of referenced) {
      const response = await fetch(`${server.url}${chunk}`);
      expect(response.status, chunk).toBe(200);
      chunks.push({ source: `chunk ${chunk}`, text: await response.text() });
    }
    const distDir = process.env.NEXT_DIST_DIR ?? ".next";
    for (const file of listFiles(path.resolve(__dirname, "../..", distDir, "static"))) {
      if (file.endsWith(".js"))
        chunks.push({
          source: `build ${path.relative(process.cwd(), file)}`,
          text: readFileSync(file, "utf8"),
        });
    }
    expect(findLeaks(chunks).join("\n")).toBe("");
  });

  it("no cookie readable by scripts, Web Storage or IndexedDB store holds one", () => {
    expect(storage.map((item) => item.source)).toEqual([
      "document.cookie",
      "localStorage",
      "sessionStorage",
      "IndexedDB",
    ]);
    expect(storage.find((item) => item.source === "IndexedDB")?.text).toContain("600649******0001");
    expect(findLeaks(storage).join("\n")).toBe("");
  });

  it("the history export holds masked runs and none of them", () => {
    expect(exported).not.toBeNull();
    const document = JSON.parse(exported!.text) as { runs: unknown[] };
    expect(document.runs.length).toBeGreaterThan(0);
    expect(exported!.text).toContain("600649******0001");
    expect(findLeaks([exported!]).join("\n")).toBe("");
  });

  it("the history's Postman and HAR exports hold masked runs and none of them", () => {
    expect(toolExports.map((item) => item.source)).toEqual(["history Postman export", "history HAR export"]);
    for (const item of toolExports) expect(item.text).toContain("600649******0001");
    expect(findLeaks(toolExports).join("\n")).toBe("");
  });

  it("the server log holds none of them", () => {
    expect(findLeaks([{ source: "server log", text: server.logs() }]).join("\n")).toBe("");
  });
});
