/**
 * Global setup: one Chromium for the run, provided as `chromiumWsEndpoint`; `launchBrowser()` in a test file
 * connects to it, and each test opens its own context (its own cookies and storage) in it.
 */
import type { TestProject } from "vitest/node";
import { launchBrowserServer } from "../support/browser";
import { oncePerRun } from "./once-per-run";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { value: server, release } = await oncePerRun("chromium", launchBrowserServer, (started) =>
    started.close(),
  );
  project.provide("chromiumWsEndpoint", server.wsEndpoint());
  return release;
}
