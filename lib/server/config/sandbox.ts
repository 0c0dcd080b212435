/**
 * The embedded and standalone sandbox's variables (DESIGN.md §3, §5), validated with zod. Kept apart from
 * the server's configuration so that `npm run sandbox` can read them without the console: the sandbox
 * module itself reads no environment, it takes these as options.
 */
import { z } from "zod";
import { integer, onOff, optionalText, parseEnv } from "./env-values";

export const DEFAULT_SLOW_RESPONSE_MS = 30_000;

export interface SandboxSettings {
  /** EMBEDDED_SANDBOX: whether the console mounts its own sandbox at /sandbox. */
  embedded: boolean;
  /** SANDBOX_DEMO_SECRET, or undefined for the sandbox's public default. */
  demoSecret: string | undefined;
  /** SANDBOX_SIGNING_KEY (HS256); undefined: a random key per process. */
  signingKey: string | undefined;
  /** SANDBOX_TEST_HOOKS=on: the /__sandbox/* hooks answer. */
  testHooks: boolean;
  /** SANDBOX_SLOW_MS: delay of the slow test card (at least 1 ms: 0 would make the "slow" card fast). */
  slowResponseMs: number;
  /** SANDBOX_PORT of `npm run sandbox`. */
  port: number;
}

const sandboxEnvSchema = z.object({
  EMBEDDED_SANDBOX: onOff("on"),
  SANDBOX_DEMO_SECRET: optionalText,
  SANDBOX_SIGNING_KEY: optionalText,
  SANDBOX_TEST_HOOKS: onOff("off"),
  SANDBOX_SLOW_MS: integer(1, 600_000, DEFAULT_SLOW_RESPONSE_MS),
  SANDBOX_PORT: integer(1, 65_535, 4010),
});

const SECRETS = new Set(["SANDBOX_DEMO_SECRET", "SANDBOX_SIGNING_KEY"]);

/** Throws ConfigError naming the variable. */
export function sandboxSettings(env: Record<string, string | undefined> = process.env): SandboxSettings {
  const parsed = parseEnv(sandboxEnvSchema, env, SECRETS);
  return {
    embedded: parsed.EMBEDDED_SANDBOX === "on",
    demoSecret: parsed.SANDBOX_DEMO_SECRET,
    signingKey: parsed.SANDBOX_SIGNING_KEY,
    testHooks: parsed.SANDBOX_TEST_HOOKS === "on",
    slowResponseMs: parsed.SANDBOX_SLOW_MS,
    port: parsed.SANDBOX_PORT,
  };
}
