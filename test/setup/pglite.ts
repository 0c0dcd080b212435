/**
 * Global setup: one embedded database migrated to the current schema, closed, and provided as
 * `pgliteTemplate`; unit route tests and test consoles copy it (test/support/pglite-template.ts) instead of
 * paying PGlite's initdb and the migrations in every file and every server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/lib/server/database/connection";
import { migrate } from "@/lib/server/database/migrate";
import { recordStart } from "../support/shared";
import { oncePerRun } from "./once-per-run";

async function createTemplate(): Promise<string> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "console-pglite-template-"));
  recordStart("pglite-template");
  const handle = await openDatabase({ dataDir: folder });
  try {
    await migrate(handle.db);
  } finally {
    await handle.close();
  }
  return folder;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { value: folder, release } = await oncePerRun("pglite-template", createTemplate, (template) =>
    rmSync(template, { recursive: true, force: true }),
  );
  project.provide("pgliteTemplate", folder);
  return release;
}
