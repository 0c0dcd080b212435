/**
 * A Go program built once per source and toolchain: `go run .` builds it again (and links it) on every command.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The binary of the Go module in `folder` (its go.mod and .go files, in every subfolder), built with `go build` once per source and
 * `go version`: the folder under the temporary directory is named by their hash, so each file of a run (and the
 * next run) finds it there. Undefined when there is no `go`. Built in a folder of its own and renamed into
 * place, so workers building at once never see half a binary.
 */
export function builtGoProgram(folder: string): string | undefined {
  const version = spawnSync("go", ["version"], { encoding: "utf8" });
  if (version.status !== 0) return undefined;
  const hash = createHash("sha256").update(version.stdout);
  // Packages in subfolders (the client's own package) are part of the binary too.
  const sources = readdirSync(folder, { recursive: true, encoding: "utf8" }).sort();
  for (const name of sources) {
    const base = path.basename(name);
    if (base !== "go.mod" && base !== "go.sum" && !base.endsWith(".go")) continue;
    hash.update(`\0${name}\0`).update(readFileSync(path.join(folder, name)));
  }
  const built = path.join(os.tmpdir(), `console-tests-go-${hash.digest("hex").slice(0, 16)}`);
  const binary = path.join(built, "client");
  if (existsSync(binary)) return binary;
  const building = mkdtempSync(`${built}-building-`);
  const result = spawnSync("go", ["build", "-o", path.join(building, "client"), "."], {
    cwd: folder,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`go build in ${folder} failed:\n${result.stderr}`);
  }
  try {
    renameSync(building, built);
  } catch {
    // Another worker put the same binary in place first.
    rmSync(building, { recursive: true, force: true });
  }
  return binary;
}
