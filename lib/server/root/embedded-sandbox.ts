/**
 * The console's own sandbox instance, mounted at /sandbox: the root's (every bundle shares it), built from the
 * sandbox variables that lib/server/config validates. The sandbox itself reads no environment.
 */
import "server-only";
import type { Sandbox } from "@/lib/sandbox";
import { sandboxSettings } from "@/lib/server/config/sandbox";
import { consoleRoot } from "./process";

export { EMBEDDED_BASE_PATH } from "@/lib/sandbox/embedded";

export function isEmbeddedSandboxEnabled(env?: Record<string, string | undefined>): boolean {
  return sandboxSettings(env).embedded;
}

export function getEmbeddedSandbox(): Sandbox {
  return consoleRoot().embeddedSandbox();
}
