/**
 * A file input's own button ("Choose File") is drawn by the browser from the page's `file:` classes, and axe does
 * not look inside it: its text must keep 4.5:1 on its background in both themes, like any other text.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "@/test/support/browser";
import { sharedConsole, type ConsoleServer } from "@/test/support/console-server";
import { forceTheme } from "./console-support";

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await sharedConsole();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
});

/** The contrast of the file button's text on its background, each colour resolved to sRGB by a canvas. */
async function fileButtonContrast(page: Page, selector: string): Promise<number> {
  return page.evaluate((selector) => {
    const input = document.querySelector<HTMLInputElement>(selector);
    if (!input) throw new Error(`no ${selector}`);
    const style = getComputedStyle(input, "::file-selector-button");
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const luminance = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)].map((channel) => {
        const c = channel / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const text = luminance(style.color);
    const background = luminance(style.backgroundColor);
    const [light, dark] = text > background ? [text, background] : [background, text];
    return (light + 0.05) / (dark + 0.05);
  }, selector);
}

const FILE_INPUTS = [
  { route: "/support", selector: "input[type=file][accept*=csv]" },
  { route: "/certification", selector: "input[type=file][accept*=zip]" },
];

describe("file buttons are readable in both themes", () => {
  for (const { route, selector } of FILE_INPUTS) {
    for (const theme of ["light", "dark"] as const) {
      it(`${route} in ${theme}`, async () => {
        await page.goto(`${server.url}${route}`);
        await page.locator(selector).waitFor({ state: "attached" });
        await forceTheme(page, theme);
        expect(await fileButtonContrast(page, selector)).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});
