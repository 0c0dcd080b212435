/**
 * The database is opened when the server starts (instrumentation), not by the first request, and once: DATA_DIR
 * written as a relative or an absolute path is one PGlite folder with one handle.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createDatabaseRegistry } from "@/lib/server/database";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { seedDataDir } from "../../support/pglite-template";

describe("the database at server start", () => {
  const servers: ConsoleServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  test("is open and migrated before the server answers its first request; /api/ready says so", async () => {
    const server = await startConsole();
    servers.push(server);
    const lines = server.logs().split("\n");
    const opened = lines.findIndex((line) => line.includes('"msg":"database open"'));
    const firstCall = lines.findIndex((line) => line.includes('"msg":"api call"'));
    expect(opened).toBeGreaterThanOrEqual(0);
    expect(lines[opened]).toContain('"database":"pglite"');
    if (firstCall >= 0) expect(opened).toBeLessThan(firstCall);
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", database: "pglite" });
    expect(server.logs()).not.toMatch(/in use by process/);
  });

  test("one PGlite folder is one handle, however DATA_DIR is written", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "console-open-"));
    seedDataDir(dataDir);
    const databases = createDatabaseRegistry();
    try {
      const absolute = databases.open({ dataDir });
      const relative = databases.open({ dataDir: path.relative(process.cwd(), dataDir) });
      const trailing = databases.open({ dataDir: `${dataDir}/` });
      expect(relative).toBe(absolute);
      expect(trailing).toBe(absolute);
      expect((await absolute).kind).toBe("pglite");
    } finally {
      await databases.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
