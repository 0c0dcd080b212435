/**
 * The console's view of the sandbox variables (docs/design.md §3, §5): the sandbox's own settings
 * (lib/sandbox/settings.ts, which `npm run sandbox` reads alone) plus EMBEDDED_SANDBOX, whether the console
 * mounts its own instance at /sandbox.
 */
import { z } from "zod";
import {
  SANDBOX_SECRETS,
  sandboxEnvShape,
  toSandboxSettings,
  type SandboxSettings as SandboxOwnSettings,
} from "@/lib/sandbox/settings";
import { onOff, parseEnv } from "@/lib/shared/env-values";

export interface SandboxSettings extends SandboxOwnSettings {
  /** EMBEDDED_SANDBOX: whether the console mounts its own sandbox at /sandbox. */
  embedded: boolean;
}

const sandboxEnvSchema = z.object({ EMBEDDED_SANDBOX: onOff("on"), ...sandboxEnvShape });

/** Throws ConfigError naming the variable. */
export function sandboxSettings(env: Record<string, string | undefined> = process.env): SandboxSettings {
  const parsed = parseEnv(sandboxEnvSchema, env, SANDBOX_SECRETS);
  return { embedded: parsed.EMBEDDED_SANDBOX === "on", ...toSandboxSettings(parsed) };
}
