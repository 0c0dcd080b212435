/**
 * A newcomer's first start (`npm start` with nothing configured): scripts/start.mjs makes the embedded database
 * beside the build (scripts/embedded-database.mjs), the server takes that folder as its own, and what it logs
 * reads as information, not as trouble: nothing at warning level (40) or above. Its log is JSON, its stdout not
 * being a terminal.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabaseFolder, missingDatabaseFolder } from "@/scripts/embedded-database.mjs";
import { startConsole, type ConsoleServer } from "../../support/console-server";

const root = path.resolve(__dirname, "../../..");

describe("a first start with nothing configured", () => {
  let dataDir: string;
  let server: ConsoleServer;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "first-start-"));
    await createDatabaseFolder(root, path.join(dataDir, "pglite"));
    server = await startConsole({ DATA_DIR: dataDir, SESSION_SECRET: undefined, AUDIT_HMAC_KEY: undefined });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("makes the database in its folder, complete, and nothing beside it", () => {
    expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    expect(readdirSync(dataDir).filter((name) => name.startsWith("pglite"))).toEqual(["pglite"]);
  });

  it("serves the first page on that database", async () => {
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const ready = await fetch(`${server.url}/api/ready`);
    expect(await ready.json()).toEqual({ status: "ready", database: "pglite" });
  });

  it("logs nothing at warning level or above, and says what it generated", async () => {
    // The evidence signing key is made when certification is first used.
    expect((await fetch(`${server.url}/api/certification/public-key`)).status).toBe(200);
    await expect.poll(() => server.logs()).toMatch(/"msg":"database open"/);
    await expect.poll(() => server.logs()).toMatch(/EVIDENCE_SIGNING_KEY is not set/);
    const lines = server
      .logs()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(lines.map((line) => line.msg).join("\n")).toMatch(
      /SESSION_SECRET is not set[^]*AUDIT_HMAC_KEY is not set[^]*EVIDENCE_SIGNING_KEY is not set/,
    );
  });

  it("is made only where the server would make it: not for PostgreSQL, not over a folder already there", () => {
    const env = { ...process.env };
    const project = mkdtempSync(path.join(os.tmpdir(), "first-start-env-"));
    try {
      delete process.env.DATABASE_URL;
      delete process.env.DATA_DIR;
      expect(missingDatabaseFolder(project)).toBe(path.join(project, ".data", "pglite"));
      writeFileSync(path.join(project, ".env"), `DATA_DIR=${dataDir}\n`);
      expect(missingDatabaseFolder(project)).toBeUndefined();
      writeFileSync(path.join(project, ".env"), "DATABASE_URL=postgres://db.test/console\n");
      delete process.env.DATA_DIR;
      expect(missingDatabaseFolder(project)).toBeUndefined();
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
      Object.assign(process.env, env);
      rmSync(project, { recursive: true, force: true });
    }
  });
});
