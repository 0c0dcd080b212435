/**
 * The console's own sandbox instance, mounted at /sandbox: one per process (every bundle shares it), built
 * from the sandbox variables that lib/server/config validates. The sandbox itself reads no environment.
 */
import "server-only";
import { createEmbeddedSandbox } from "@/lib/sandbox/embedded";
import type { Sandbox } from "@/lib/sandbox";
import { embeddedClientPort } from "@/lib/server/client-certification";
import { sandboxSettings } from "@/lib/server/config/sandbox";
import { processSingleton } from "@/lib/server/process-singleton";

export { EMBEDDED_BASE_PATH } from "@/lib/sandbox/embedded";

export function isEmbeddedSandboxEnabled(env?: Record<string, string | undefined>): boolean {
  return sandboxSettings(env).embedded;
}

export function getEmbeddedSandbox(): Sandbox {
  // Integration certification clients (DESIGN.md §11) are registered in the database, outside the sandbox.
  return processSingleton("embedded-sandbox", () =>
    createEmbeddedSandbox(sandboxSettings(), embeddedClientPort()),
  );
}
