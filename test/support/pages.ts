/**
 * The browser tests' repeated set-up: a page in a context of its own on the run's Chromium, connected with the
 * embedded sandbox's demo credentials, or signed in at the in-process OpenID provider. Each helper waits for
 * what a user would see, never for a fixed time.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { launchBrowser, waitFor } from "./browser";
import { sharedConsole, startConsole, type ConsoleServer } from "./console-server";
import type { SharedConsoleProfile } from "./shared-consoles";

/** The desktop size most pages are checked at. */
const DESKTOP = { width: 1280, height: 900 };

/** A page in a new context of its own: nothing it stores is seen by another test's page. */
export async function newPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  return { context, page: await context.newPage() };
}

/**
 * Connects the page's session with the embedded sandbox's demo credentials, through the connect page, and waits
 * until the session holds them and the page says so ("Secret set" alone could be server-held credentials).
 */
export async function connectWithDemoCredentials(page: Page, consoleUrl: string): Promise<void> {
  await page.goto(`${consoleUrl}/connect`);
  await page.getByRole("button", { name: "Use demo credentials" }).click();
  await waitFor(
    async () => (await page.evaluate(() => fetch("/api/session").then((r) => r.json()))).credentials.source,
    "session",
  );
  await page.getByText("Secret set", { exact: true }).waitFor();
}

/** Fills the in-process provider's form as `name` (password `<name>-password`) and waits to be back at `url`. */
export async function signInAtTestProvider(page: Page, name: string, url: string): Promise<void> {
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Password").fill(`${name}-password`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((address) => address.href.startsWith(url));
}

/** Opens `path` on an OpenID team console, follows its sign-in link, and signs in as `name`. */
export async function signInWithOidc(page: Page, url: string, path: string, name: string): Promise<void> {
  await page.goto(`${url}${path}`);
  await page.getByRole("link", { name: /^Sign in with / }).click();
  await signInAtTestProvider(page, name, `${url}${path}`);
  await page.getByTestId("signed-in-user").first().waitFor();
}

export interface ConsolePage {
  server: ConsoleServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Closes the context, lets go of the browser and stops the console (the shared one keeps running). */
  close(): Promise<void>;
}

export interface ConsolePageOptions {
  /** A console of the file's own with this environment; without it, the run's shared console of `profile`. */
  env?: Record<string, string | undefined>;
  /** The shared console's profile when no `env` is given ("default" unless given). */
  profile?: SharedConsoleProfile;
  /** Context options: viewport (DESKTOP unless given), acceptDownloads, … */
  context?: BrowserContextOptions;
  /** Connect with the demo credentials first (the state most pages are tested in). */
  demo?: boolean;
}

/** A console, the run's Chromium and one page on it: what a browser test file starts in `beforeAll`. */
export async function openConsolePage(options: ConsolePageOptions = {}): Promise<ConsolePage> {
  const server = options.env ? await startConsole(options.env) : await sharedConsole(options.profile);
  const browser = await launchBrowser();
  const { context, page } = await newPage(browser, options.context);
  if (options.demo) await connectWithDemoCredentials(page, server.url);
  return {
    server,
    browser,
    context,
    page,
    async close() {
      await context.close();
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * "Sign out" on an OpenID team console: through the provider's sign-out (confirmed there when it asks) to the
 * console's /signed-out page, whose heading is waited for.
 */
export async function signOutThroughProvider(page: Page, url: string, issuer: string): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((address) => address.href.startsWith(issuer) || address.pathname === "/signed-out");
  if (page.url().startsWith(issuer)) {
    await page.getByRole("button", { name: /yes, sign me out/i }).click();
  }
  await page.waitForURL(`${url}/signed-out`);
  await page.getByRole("heading", { name: "You are signed out" }).waitFor();
}
