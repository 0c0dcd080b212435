/**
 * The standalone output (what the image ships) holds what the server runs: the build traces the files the
 * server's code reads, and a read whose path the tracer cannot bound would bring the whole project in (its
 * tests, documents and tooling), slowing every build and growing the image.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const root = path.resolve(__dirname, "../../..");
const standalone = path.join(root, process.env.NEXT_DIST_DIR || ".next", "standalone");

describe("the standalone output", () => {
  test("holds the server and what it reads at run time, not the whole project", () => {
    expect(existsSync(path.join(standalone, "server.js")), "no standalone build: run ensure-build").toBe(
      true,
    );
    const files = [
      "db/migrations",
      "lib/server/database/pglite-initdb.mjs",
      "lib/server/database/pglite-settings.mjs",
      "starter-clients/README.md",
      "starter-clients/node/client.mjs",
      "starter-clients/node/.env.example",
      "starter-clients/python/client.py",
      "starter-clients/python/.env.example",
    ];
    for (const needed of files) expect(existsSync(path.join(standalone, needed)), needed).toBe(true);
    for (const project of ["test", "docs", "vitest.config.mts", "eslint.config.mjs"])
      expect(existsSync(path.join(standalone, project)), project).toBe(false);
  });
});
