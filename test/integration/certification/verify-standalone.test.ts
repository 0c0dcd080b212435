/**
 * The evidence reader's worker ships with the standalone output (as the container image runs it, from another
 * working directory): the verify route there reads a bundle in the worker and refuses one past a bound.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerifyResponse } from "@/lib/shared/certification-api";
import { freePort } from "../../support/console-server";
import { declaredHugeZip, writeZip } from "../../support/hostile-zips";
import { seedDataDir } from "../../support/pglite-template";
import { startServerProcess, type ServerProcess } from "../../support/server-process";
import { CONSOLE_TEST_SESSION_SECRET } from "@/test/support/http-client";

const standalone = path.resolve(__dirname, "../../..", process.env.NEXT_DIST_DIR || ".next", "standalone");

describe("POST /api/certification/verify in the standalone output", () => {
  let server: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    if (!existsSync(path.join(standalone, "server.js"))) {
      throw new Error("No standalone build: run `node scripts/ensure-build.mjs` (npm test does) first.");
    }
    dataDir = mkdtempSync(path.join(os.tmpdir(), "standalone-verify-"));
    seedDataDir(dataDir); // a first start on an empty folder is deploy/standalone.test.ts's
    const port = await freePort();
    server = await startServerProcess({
      script: path.join(standalone, "server.js"),
      cwd: os.tmpdir(),
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        SESSION_SECRET: CONSOLE_TEST_SESSION_SECRET,
        ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
      },
      url: `http://localhost:${port}`,
      probeUrl: `http://localhost:${port}/api/health`,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (zip: Uint8Array<ArrayBuffer>) =>
    fetch(`${server.url}/api/certification/verify`, {
      method: "POST",
      headers: { "content-type": "application/zip", origin: server.url },
      body: zip,
    });

  it("reads a zip in the worker, and refuses one past a bound", async () => {
    const readable = await upload(writeZip([{ name: "note.txt", bytes: new TextEncoder().encode("hello") }]));
    expect(readable.status).toBe(200);
    const body = (await readable.json()) as VerifyResponse;
    expect(body.problems).toContain("manifest.json is missing.");
    const refused = await upload(declaredHugeZip(300));
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("bundle_too_large");
  });
});
