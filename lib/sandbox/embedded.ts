/**
 * The console's own sandbox instance, mounted at /sandbox: one per process (every bundle shares it),
 * configured from the sandbox variables that lib/server/config validates. The sandbox itself reads no environment.
 */
import "server-only";
import { embeddedClientPort } from "@/lib/server/client-certification";
import { sandboxSettings } from "@/lib/server/config/sandbox";
import { processSingleton } from "@/lib/server/process-singleton";
import { createSandbox, type Sandbox } from "./index";

export const EMBEDDED_BASE_PATH = "/sandbox";

export function isEmbeddedSandboxEnabled(env?: Record<string, string | undefined>): boolean {
  return sandboxSettings(env).embedded;
}

export function getEmbeddedSandbox(): Sandbox {
  return processSingleton("embedded-sandbox", () => {
    const settings = sandboxSettings();
    return createSandbox({
      basePath: EMBEDDED_BASE_PATH,
      demoSecret: settings.demoSecret,
      signingKey: settings.signingKey,
      testHooks: settings.testHooks,
      slowResponseMs: settings.slowResponseMs,
      // Integration certification clients (DESIGN.md §11), registered in the database.
      clients: embeddedClientPort(),
    });
  });
}
