/**
 * Global setup: the production build the integration and browser tests start, built once before any test
 * file (and only when a source file is newer than it), not by whichever file comes first.
 */
import { build, needsBuild } from "../../scripts/ensure-build.mjs";

export default async function setup(): Promise<void> {
  if (!needsBuild()) return;
  console.log("[test setup] building the console (next build)…");
  const status = await build();
  if (status !== 0) throw new Error(`next build failed (exit status ${status})`);
}
