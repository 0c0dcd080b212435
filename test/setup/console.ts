/**
 * Global setup: one console with the default test environment for the run, provided as `defaultConsoleUrl`;
 * `sharedConsole()` in a test file answers it instead of starting a server of its own.
 *
 * Its per-user rate limit is lifted: with AUTH_MODE=none every file sharing it is the same user, and files run
 * at once would otherwise spend one budget between them. Tests of the rate limit start a console of their own.
 */
import type { TestProject } from "vitest/node";
import { startConsole } from "../support/console-server";
import { oncePerRun } from "./once-per-run";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { value: server, release } = await oncePerRun(
    "default-console",
    // Every file on it is the same user: the per-user limits are lifted.
    () => startConsole({ RATE_LIMIT_PER_MINUTE: "100000", CERTIFICATION_RUNS_PER_HOUR: "100000" }),
    (started) => started.stop(),
  );
  project.provide("defaultConsoleUrl", server.url);
  return release;
}
