/**
 * The sandbox as the console mounts it, at /sandbox. The console (lib/server/root/embedded-sandbox.ts) reads the
 * settings, supplies the registered-clients port and keeps the one instance per process; this side only builds
 * it from what it is given.
 */
import { createSandbox, type Sandbox, type SandboxClientPort } from "./index";
import { sandboxOptionsFrom, type SandboxSettings } from "./settings";

export const EMBEDDED_BASE_PATH = "/sandbox";

export function createEmbeddedSandbox(settings: SandboxSettings, clients?: SandboxClientPort): Sandbox {
  return createSandbox({ basePath: EMBEDDED_BASE_PATH, ...sandboxOptionsFrom(settings), clients });
}
