/**
 * The process's one root. Next evaluates a module once per bundle (instrumentation, proxy, each route), so the
 * root is kept in the one process-wide slot below, a global symbol, where every bundle finds the same one.
 */
import "server-only";
import type { Sandbox } from "@/lib/sandbox";
import { loadConfig, validateConfigAtStartup, type ServerConfig } from "@/lib/server/config";
import { bindLogger } from "@/lib/server/util/logger";
import {
  createConsoleRoot,
  createProcessParts,
  type ConsoleRoot,
  type RootOptions,
  type Services,
} from "./console-root";

const ROOT_SLOT = Symbol.for("card-services-console.root");
const slots = globalThis as unknown as Record<symbol, ConsoleRoot | undefined>;

/** The process's root, built from `process.env` on first use. */
export function consoleRoot(): ConsoleRoot {
  let root = slots[ROOT_SLOT];
  if (!root) {
    root = createConsoleRoot(loadConfig(process.env));
    slots[ROOT_SLOT] = root;
  }
  // This bundle's copy of the logger module writes through the root's logger.
  bindLogger(root.logger);
  return root;
}

/**
 * At start (instrumentation): validates the configuration (a bad variable stops the process with a message
 * naming it) and installs the process's root built from it.
 */
export function installRootAtStartup(exit?: (code: number) => never): ConsoleRoot {
  const parts = createProcessParts();
  const config = validateConfigAtStartup(() => loadConfig(process.env), parts.logger, exit);
  return installConsoleRoot(createConsoleRoot(config, parts));
}

/** Makes `root` the process's root (start, tests). */
export function installConsoleRoot(root: ConsoleRoot): ConsoleRoot {
  slots[ROOT_SLOT] = root;
  bindLogger(root.logger);
  return root;
}

/** Forgets the process's root: the next caller builds one from `process.env` (tests). */
export function resetConsoleRoot(): void {
  slots[ROOT_SLOT] = undefined;
}

/** The process's configuration. */
export function getConfig(): ServerConfig {
  return consoleRoot().config;
}

/** The process's storage-backed services. */
export function getServices(): Promise<Services> {
  return consoleRoot().services();
}

/**
 * Installs a root for a new configuration (tests): it keeps the process's logger, metrics, open databases and
 * embedded sandbox, as a restart would not. Returns the new configuration.
 */
export function setConfigForTests(
  env: Record<string, string | undefined>,
  options: RootOptions = {},
): ServerConfig {
  const previous = slots[ROOT_SLOT];
  return installConsoleRoot(createConsoleRoot(loadConfig(env), previous?.parts, options)).config;
}

/** Replaces the embedded sandbox (tests that configure its clock), or forgets it. */
export function setEmbeddedSandboxForTests(sandbox: Sandbox | undefined): void {
  consoleRoot().parts.replaceEmbeddedSandbox(sandbox);
}
