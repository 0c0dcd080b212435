/**
 * Global setup: one console of each shared profile (test/support/shared-consoles.ts) for the run, provided as
 * `sharedConsoles`; `sharedConsole(profile)` in a test file answers it instead of starting a server of its own.
 * The integration and browser projects share them (test/setup/once-per-run.ts). Each writes its output to a
 * file, so a test can read its log lines (`logs()`) as it reads its own console's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startConsole } from "../support/console-server";
import {
  SHARED_CONSOLE_PROFILES,
  type SharedConsoleAddress,
  type SharedConsoleProfile,
} from "../support/shared-consoles";
import { oncePerRun } from "./once-per-run";

async function startShared(profile: SharedConsoleProfile) {
  const logFolder = mkdtempSync(path.join(os.tmpdir(), `console-shared-${profile}-`));
  const logFile = path.join(logFolder, "console.log");
  try {
    const server = await startConsole(SHARED_CONSOLE_PROFILES[profile], { logFile });
    return { server, logFile, logFolder };
  } catch (error) {
    rmSync(logFolder, { recursive: true, force: true });
    throw error;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const profiles = Object.keys(SHARED_CONSOLE_PROFILES) as SharedConsoleProfile[];
  // Started side by side: each start is a process of its own, mostly waiting on its first answer.
  const started = await Promise.all(
    profiles.map((profile) =>
      oncePerRun(
        `shared-console-${profile}`,
        () => startShared(profile),
        async ({ server, logFolder }) => {
          await server.stop();
          rmSync(logFolder, { recursive: true, force: true });
        },
      ),
    ),
  );
  const addresses: Partial<Record<SharedConsoleProfile, SharedConsoleAddress>> = {};
  profiles.forEach((profile, index) => {
    const { server, logFile } = started[index]!.value;
    addresses[profile] = { url: server.url, logFile };
  });
  project.provide("sharedConsoles", addresses as Record<SharedConsoleProfile, SharedConsoleAddress>);
  return async () => {
    await Promise.all(started.map(({ release }) => release()));
  };
}
