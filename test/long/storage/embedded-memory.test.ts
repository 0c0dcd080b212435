/**
 * The embedded database's share of the default console's memory: PostgreSQL's buffers sized for the console
 * rather than for a server of their own, and PGlite's initdb (a second WASM instance) run in a process of its
 * own, so that its heap is not left in the console's until some garbage collection.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { openDatabase } from "@/lib/server/database";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { parseExposition, sampleOf } from "../../support/prometheus";

const METRICS_TOKEN = "metrics-token-for-the-memory-test-0123";
/** A fresh console measured 580 to 890 MB with PostgreSQL's default buffers and initdb in its own heap. */
const MAX_RSS_AFTER_START_MB = 400;

describe("the embedded database's memory", () => {
  const folders: string[] = [];
  const servers: ConsoleServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  const freshFolder = () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "console-memory-"));
    folders.push(folder);
    return folder;
  };

  test("runs with buffers sized for the console", async () => {
    const handle = await openDatabase({ dataDir: freshFolder() });
    try {
      // The PGlite driver answers { rows }, which the backend-neutral Database type leaves unknown.
      const setting = async (name: string) =>
        ((await handle.db.execute(sql.raw(`show ${name}`))) as unknown as { rows: unknown[] }).rows[0];
      expect(await setting("shared_buffers")).toEqual({ shared_buffers: "16MB" });
      expect(await setting("maintenance_work_mem")).toEqual({ maintenance_work_mem: "16MB" });
      // What PGlite itself sets stays: fsync off is what docs/operations/postgresql-and-instances.md (Durability) describes.
      expect(await setting("fsync")).toEqual({ fsync: "off" });
    } finally {
      await handle.close();
    }
  });

  test("a console's first start on an empty DATA_DIR (initdb included) leaves it within its bound", async () => {
    // DATA_DIR given: the console creates its database itself instead of copying the run's template.
    const server = await startConsole({ DATA_DIR: freshFolder(), METRICS_TOKEN });
    servers.push(server);
    const response = await fetch(`${server.url}/api/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const metrics = parseExposition(await response.text());
    const rssMb = Number(sampleOf(metrics, "console_process_process_resident_memory_bytes")) / 1024 / 1024;
    expect(rssMb).toBeGreaterThan(0);
    expect(rssMb).toBeLessThan(MAX_RSS_AFTER_START_MB);
  });
});
