/**
 * Global setup: one console with the default test environment for the run, provided as `defaultConsoleUrl`;
 * `sharedConsole()` in a test file answers it instead of starting a server of its own.
 */
import type { TestProject } from "vitest/node";
import { startConsole } from "../support/console-server";
import { oncePerRun } from "./once-per-run";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { value: server, release } = await oncePerRun(
    "default-console",
    () => startConsole(),
    (started) => started.stop(),
  );
  project.provide("defaultConsoleUrl", server.url);
  return release;
}
