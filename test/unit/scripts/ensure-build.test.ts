/**
 * Which build a caller may use: `npm start` serves the build it made for itself (no standalone folder, no
 * server source maps), and every other caller of scripts/ensure-build.mjs (the tests, the bench) builds again
 * rather than read what that build left out.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { needsBuild } from "@/scripts/ensure-build.mjs";

const root = path.resolve(__dirname, "../../..");

describe("needsBuild", () => {
  const distDir = `.next-needs-build-${process.pid}`;
  const previous = process.env.NEXT_DIST_DIR;

  beforeEach(() => {
    process.env.NEXT_DIST_DIR = distDir;
    mkdirSync(path.join(root, distDir), { recursive: true });
    const buildId = path.join(root, distDir, "BUILD_ID");
    writeFileSync(buildId, "test");
    // Newer than every source, as a build just made is.
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(buildId, later, later);
  });

  afterEach(() => {
    rmSync(path.join(root, distDir), { recursive: true, force: true });
    if (previous === undefined) delete process.env.NEXT_DIST_DIR;
    else process.env.NEXT_DIST_DIR = previous;
  });

  it("takes a current full build for everyone", () => {
    expect(needsBuild()).toBe(false);
    expect(needsBuild({ forStart: true })).toBe(false);
  });

  it("takes npm start's own build for npm start only", () => {
    writeFileSync(path.join(root, distDir, "start-only-build"), "");
    expect(needsBuild({ forStart: true })).toBe(false);
    expect(needsBuild()).toBe(true);
  });

  it("builds when there is no build", () => {
    rmSync(path.join(root, distDir, "BUILD_ID"));
    expect(needsBuild({ forStart: true })).toBe(true);
  });
});
