/**
 * A route's server bundle holds the core every route needs (the route wrapper, configuration, identity,
 * sessions, audit append, rate limit) and no feature: the composition root imports each feature service on its
 * first call, so /api/health and the proxy load no certification, support desk, monitor or starter client code
 * (nor the audit log's verify and export).
 * Read from the build: the chunks an entry loads when it is required (its `R.c(...)` lines), and their sources.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const root = path.resolve(__dirname, "../../..");
const dist = path.join(root, process.env.NEXT_DIST_DIR || ".next");

/** The project sources in the chunks `entry` (a file under <distDir>/server) loads when it is required. */
function sourcesLoadedBy(entry: string): string[] {
  const file = path.join(dist, "server", entry);
  expect(existsSync(file), `no build (${file}): run ensure-build`).toBe(true);
  const chunks = [...readFileSync(file, "utf8").matchAll(/R\.c\("([^"]+)"\)/g)].map((match) => match[1]!);
  expect(chunks.length).toBeGreaterThan(0);
  const sources = new Set<string>();
  for (const chunk of chunks) {
    const map = JSON.parse(readFileSync(path.join(dist, `${chunk}.map`), "utf8")) as {
      sources?: string[];
      sections?: { map: { sources: string[] } }[];
    };
    const listed = map.sections
      ? map.sections.flatMap((section) => section.map.sources)
      : (map.sources ?? []);
    for (const source of listed) sources.add(source.replace(/^(\.\.\/)+/, ""));
  }
  return [...sources].filter((source) => /^(app|components|lib)\//.test(source));
}

/** Feature modules, and the audit log's reading side (verify, CSV export), which only the audit routes use. */
const FEATURES = new RegExp(
  "^lib/server/(certification|support|monitors|starter-clients|postman)/" +
    "|^lib/server/client-certification/(?!embedded-port\\.ts$)" +
    "|^lib/server/root/sweep\\.ts$|^lib/server/audit/(verify|csv)\\.ts$",
);

describe("route bundles", () => {
  test.each([
    ["/api/health", "app/api/health/route.js", "lib/server/http/route-steps.ts"],
    ["the proxy", "middleware.js", "lib/server/config/host-trust.ts"],
  ])("%s loads the core and no feature service", (_name, entry, core) => {
    const sources = sourcesLoadedBy(entry);
    expect(sources).toContain(core);
    expect(sources).toContain("lib/server/root/console-root.ts");
    expect(sources.filter((source) => FEATURES.test(source))).toEqual([]);
  });
});
