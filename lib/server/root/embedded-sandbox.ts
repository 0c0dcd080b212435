/**
 * The console's own sandbox instance, mounted at /sandbox: the root's (every bundle shares it), built from the
 * sandbox variables that lib/server/config validates. The sandbox itself reads no environment.
 */
import "server-only";
import type { Sandbox } from "@/lib/sandbox";
import { sandboxSettings } from "@/lib/server/config/sandbox";
import { errorResponse } from "@/lib/sandbox/http";
import { consoleRoot } from "./process";

export { EMBEDDED_BASE_PATH } from "@/lib/sandbox/embedded";

export function isEmbeddedSandboxEnabled(env?: Record<string, string | undefined>): boolean {
  return sandboxSettings(env).embedded;
}

/** What every /sandbox path answers when EMBEDDED_SANDBOX=off, in the sandbox's own error shape. */
export function sandboxDisabledResponse(): Response {
  return errorResponse(
    404,
    "sandbox_disabled",
    "Not found",
    "The embedded sandbox is off (EMBEDDED_SANDBOX=off).",
  );
}

export function getEmbeddedSandbox(): Sandbox {
  return consoleRoot().embeddedSandbox();
}
