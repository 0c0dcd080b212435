/**
 * What a bundle says about the console that made it: its version and commit, and the specification the
 * catalogue was derived from.
 *
 * The specification is not part of the repository, so its SHA-256 is fixed here, at the text the catalogue
 * was written against; a unit test keeps it equal to the file when the file is present. When the file can
 * be read at run time (CERTIFICATION_SPEC_PATH, or ../shared/spec next to the checkout), its current hash
 * is recorded too, so a bundle shows whether the catalogue still matches the specification on disk.
 */
import "server-only";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import packageJson from "@/package.json";

const SPEC_FILE_NAME = "card-services-api.md";
export const CATALOGUE_SPEC_SHA256 = "4c4189b7b64c6db8a4294740e86c32b34cb33a9d6eba66ac7e043c78e14eb4de";

export interface ConsoleInfo {
  name: string;
  version: string;
  commit: string;
}

export interface SpecificationInfo {
  file: string;
  /** The specification the catalogue was derived from. */
  sha256: string;
  /** The file found at run time, when one was; null when none could be read. */
  found_sha256: string | null;
}

/** `sourceCommit`: SOURCE_COMMIT as lib/server/config read it; else the checkout's HEAD. */
export function consoleInfo({ sourceCommit }: { sourceCommit?: string } = {}): ConsoleInfo {
  let commit = sourceCommit ?? "";
  if (!commit) {
    try {
      commit = execFileSync("git", ["rev-parse", "HEAD"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    } catch {
      commit = "unknown";
    }
  }
  return { name: packageJson.name, version: packageJson.version, commit };
}

/** `specPath`: CERTIFICATION_SPEC_PATH as lib/server/config read it. */
export function specificationInfo({ specPath }: { specPath?: string } = {}): SpecificationInfo {
  const candidates = [specPath, path.resolve(process.cwd(), "..", "shared", "spec", SPEC_FILE_NAME)];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      // Read at run time from a path chosen then: nothing for the build to trace (it would trace the whole project).
      const text = readFileSync(/* turbopackIgnore: true */ candidate);
      return {
        file: SPEC_FILE_NAME,
        sha256: CATALOGUE_SPEC_SHA256,
        found_sha256: createHash("sha256").update(text).digest("hex"),
      };
    } catch {
      // Not there: try the next place.
    }
  }
  return { file: SPEC_FILE_NAME, sha256: CATALOGUE_SPEC_SHA256, found_sha256: null };
}
