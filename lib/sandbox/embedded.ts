/**
 * The console's own sandbox instance, mounted at /sandbox. One per process, kept on globalThis because Next
 * may evaluate this module more than once (different bundles), and every copy must share one state.
 */
import "server-only";
import { createSandbox, type Sandbox } from "./index";

const GLOBAL_KEY = Symbol.for("card-services-console.embedded-sandbox");
type GlobalWithSandbox = typeof globalThis & { [GLOBAL_KEY]?: Sandbox };

export const EMBEDDED_BASE_PATH = "/sandbox";

export function isEmbeddedSandboxEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return (env.EMBEDDED_SANDBOX ?? "on").trim().toLowerCase() !== "off";
}

function positiveIntegerOr(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isInteger(parsed) && parsed >= 0
    ? parsed
    : fallback;
}

export function getEmbeddedSandbox(): Sandbox {
  const holder = globalThis as GlobalWithSandbox;
  holder[GLOBAL_KEY] ??= createSandbox({
    basePath: EMBEDDED_BASE_PATH,
    demoSecret: process.env.SANDBOX_DEMO_SECRET || undefined,
    signingKey: process.env.SANDBOX_SIGNING_KEY || undefined,
    testHooks: process.env.SANDBOX_TEST_HOOKS === "on",
    slowResponseMs: positiveIntegerOr(process.env.SANDBOX_SLOW_MS, 30_000),
  });
  return holder[GLOBAL_KEY];
}
