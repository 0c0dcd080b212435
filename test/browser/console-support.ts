/**
 * Helpers for the console pages' browser tests: axe-core, IndexedDB reads, layout checks.
 */
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import type { ExchangeRecord } from "@/lib/shared/contracts";

const AXE_PATH = path.resolve(__dirname, "../../node_modules/axe-core/axe.min.js");

interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core's violations on the page as it is now (once it has a title), one line per failing node. */
export async function axeViolations(page: Page): Promise<string[]> {
  // After a client-side navigation the new page's <title> is streamed in after its content: axe reads the page
  // once it has one, as the tab shows it. A page that never gets one is still reported, after the wait.
  await page
    .waitForFunction(() => document.title.trim() !== "", undefined, { timeout: 10_000 })
    .catch(() => undefined);
  // Once per document: checking the page again (the other theme) reuses the axe it already has.
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: { resultTypes: string[] },
          ) => Promise<{ violations: AxeResult[] }>;
        };
      }
    ).axe;
    // Every rule still runs; only the violations' nodes are collected in full, not those of the passes.
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
  });
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(node.target)}: ${node.failureSummary ?? ""}`,
    ),
  );
}

/** Puts the page in the given theme the way the toggle does (the `dark` class on <html>). */
export async function forceTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.evaluate(async (dark) => {
    const root = document.documentElement;
    root.classList.add("theme-switching"); // transitions off, as the toggle does
    root.classList.toggle("dark", dark);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    root.classList.remove("theme-switching");
  }, theme === "dark");
}

export interface StoredRun {
  id: string;
  operation: string;
  status: number;
  card: { masked: string; last4: string } | null;
}

/** Runs in the browser's history store; 0 before the console created it (never creates it itself). */
export async function historyCount(target: Page): Promise<number> {
  return target.evaluate(async () => {
    const names = (await indexedDB.databases()).map((database) => database.name);
    if (!names.includes("card-services-console")) return 0;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open("card-services-console");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const database = open.result;
        if (!database.objectStoreNames.contains("runs")) {
          database.close();
          return resolve(0);
        }
        const request = database.transaction("runs", "readonly").objectStore("runs").count();
        request.onsuccess = () => {
          resolve(request.result);
          database.close();
        };
        request.onerror = () => reject(request.error);
      };
    });
  });
}

/** The console's run history as IndexedDB holds it. */
export async function storedRuns(page: Page): Promise<StoredRun[]> {
  return page.evaluate(async () => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("card-services-console");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    if (!database.objectStoreNames.contains("runs")) return [];
    const runs = await new Promise<unknown[]>((resolve, reject) => {
      const request = database.transaction("runs", "readonly").objectStore("runs").getAll();
      request.onsuccess = () => resolve(request.result as unknown[]);
      request.onerror = () => reject(request.error);
    });
    database.close();
    return (
      runs as Array<{
        id: string;
        exchange: { operation: string; response: { status: number } };
        card: StoredRun["card"];
      }>
    ).map((run) => ({
      id: run.id,
      operation: run.exchange.operation,
      status: run.exchange.response.status,
      card: run.card,
    }));
  });
}

/** The exchange records of the console's run history, as IndexedDB holds them. */
export async function storedExchanges(page: Page): Promise<ExchangeRecord[]> {
  return page.evaluate(async () => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("card-services-console");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    if (!database.objectStoreNames.contains("runs")) return [];
    const runs = await new Promise<Array<{ exchange: ExchangeRecord }>>((resolve, reject) => {
      const request = database.transaction("runs", "readonly").objectStore("runs").getAll();
      request.onsuccess = () => resolve(request.result as Array<{ exchange: ExchangeRecord }>);
      request.onerror = () => reject(request.error);
    });
    database.close();
    return runs.map((run) => run.exchange);
  });
}

/** True when the page is wider than its viewport (a horizontal scrollbar). */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

/** Resolves when every running CSS transition and animation has finished (e.g. after a theme change). */
export async function transitionsFinished(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  });
}

/**
 * Presses Enter in a form's field once Enter can submit the form: a submit button stays disabled until React runs
 * (components/ui/button.tsx), and Enter pressed before then submits nothing.
 */
export async function pressEnterToSubmit(field: Locator): Promise<void> {
  await field.locator("xpath=ancestor::form[1]").locator('button[type="submit"]:enabled').first().waitFor();
  await field.press("Enter");
}
