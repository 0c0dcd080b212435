/**
 * The sandbox's own variables (docs/design.md §3, §5), validated with zod: `npm run sandbox` reads them with no
 * console around, and the console reads the same ones (lib/server/config/sandbox.ts) to build the embedded
 * instance. The sandbox's handler itself reads no environment: it takes these as options.
 */
import { z } from "zod";
import { integer, onOff, optionalText, parseEnv } from "@/lib/shared/env-values";
import type { SandboxOptions } from "./types";

const DEFAULT_SLOW_RESPONSE_MS = 30_000;

export interface SandboxSettings {
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

/** The variables' schemas, in the order their errors are reported. */
export const sandboxEnvShape = {
  SANDBOX_DEMO_SECRET: optionalText,
  SANDBOX_SIGNING_KEY: optionalText,
  SANDBOX_TEST_HOOKS: onOff("off"),
  SANDBOX_SLOW_MS: integer(1, 600_000, DEFAULT_SLOW_RESPONSE_MS),
  SANDBOX_PORT: integer(1, 65_535, 4010),
};

/** Never echoed in an error message. */
export const SANDBOX_SECRETS: ReadonlySet<string> = new Set(["SANDBOX_DEMO_SECRET", "SANDBOX_SIGNING_KEY"]);

type ParsedSandboxEnv = z.output<z.ZodObject<typeof sandboxEnvShape>>;

/** The settings from variables already parsed with `sandboxEnvShape`. */
export function toSandboxSettings(parsed: ParsedSandboxEnv): SandboxSettings {
  return {
    demoSecret: parsed.SANDBOX_DEMO_SECRET,
    signingKey: parsed.SANDBOX_SIGNING_KEY,
    testHooks: parsed.SANDBOX_TEST_HOOKS === "on",
    slowResponseMs: parsed.SANDBOX_SLOW_MS,
    port: parsed.SANDBOX_PORT,
  };
}

/** Throws a ConfigError (lib/shared/env-values) naming the variable. */
export function readSandboxSettings(env: Record<string, string | undefined> = process.env): SandboxSettings {
  return toSandboxSettings(parseEnv(z.object(sandboxEnvShape), env, SANDBOX_SECRETS));
}

/** What `createSandbox` takes from the settings (the port is the standalone server's). */
export function sandboxOptionsFrom(settings: SandboxSettings): SandboxOptions {
  return {
    demoSecret: settings.demoSecret,
    signingKey: settings.signingKey,
    testHooks: settings.testHooks,
    slowResponseMs: settings.slowResponseMs,
  };
}
