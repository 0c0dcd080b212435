/**
 * The OS's Chromium through playwright-core. `CHROMIUM_PATH` wins; then Chromium's headless shell, then the full
 * browser. Under Vitest's browser project one Chromium serves the whole run (test/setup/chromium.ts); open a
 * context per test.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserServer, type Download } from "playwright-core";
import { provided, recordStart } from "./shared";

const SCREENSHOT_DIR = path.resolve(__dirname, "../../test-results/screenshots");

/**
 * The headless shell comes first: it renders pages with the same engine but without the full browser's own
 * interface, and a page load costs it about a third of the CPU, which on a 2-core machine is most of what the
 * browser tests wait for. The full browser still works when it is all there is.
 */
const CHROMIUM_CANDIDATES = [
  "/usr/lib/chromium/chromium-headless-shell",
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
];

function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, ...CHROMIUM_CANDIDATES].filter(
    (candidate): candidate is string => Boolean(candidate),
  );
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      "Chromium not found. Install it (Debian/Ubuntu: `sudo apt-get install -y chromium-headless-shell`) " +
        "or set CHROMIUM_PATH to a Chromium or Chrome executable.",
    );
  }
  return found;
}

const LAUNCH_OPTIONS = {
  headless: true,
  // Flags for a closed network and running as root in CI.
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
  ],
};

/** A Chromium that test files connect to (the browser project's global setup starts one per run). */
export async function launchBrowserServer(): Promise<BrowserServer> {
  recordStart("chromium");
  return chromium.launchServer({ ...LAUNCH_OPTIONS, executablePath: chromiumPath() });
}

/**
 * The run's shared Chromium when a global setup started one: `close()` then closes this caller's contexts and
 * disconnects, leaving the browser to the other files. Else a Chromium of the caller's own.
 */
export async function launchBrowser(): Promise<Browser> {
  const wsEndpoint = provided("chromiumWsEndpoint");
  if (wsEndpoint) return withPatientContexts(await chromium.connect(wsEndpoint));
  recordStart("chromium");
  return withPatientContexts(await chromium.launch({ ...LAUNCH_OPTIONS, executablePath: chromiumPath() }));
}

/**
 * How long a click, a download or a `waitFor` may take before it fails. Playwright's 30 s is too short on a
 * loaded 2-core machine running several files at once (verifying an uploaded bundle went past it); a hang is
 * still caught, by this and by the test's own timeout.
 */
const ACTION_TIMEOUT_MS = 45_000;

/** Every context this browser opens (`newPage()` opens one too) waits up to ACTION_TIMEOUT_MS. */
function withPatientContexts(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    return context;
  };
  return browser;
}

/**
 * A download's contents as UTF-8 text. A shared Chromium is reached over a connection, where
 * `download.path()` is not available (the file is the browser's); its stream is.
 */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString("utf8");
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, `${name}.png`);
}

/** Polls until `read` returns `expected` (expect.poll cannot run in hooks). Only a hang guard, not timing. */
export async function waitFor<T>(read: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (last === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`expected ${String(expected)}, last saw ${String(last)}`);
}
