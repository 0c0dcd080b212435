/**
 * Temporary folders made for one test file, removed after it (test/setup/fresh-process.ts) once the console
 * root that used them is closed: an embedded database is tens of MB, and a run makes one for every file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const madeForThisFile: string[] = [];

export function fileTempDir(prefix: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  madeForThisFile.push(folder);
  return folder;
}

export function removeFileTempDirs(): void {
  for (const folder of madeForThisFile.splice(0)) rmSync(folder, { recursive: true, force: true });
}
