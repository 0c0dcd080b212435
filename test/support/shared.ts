/**
 * What a Vitest global setup (test/setup/*) started once for the whole run and hands to every test file: a
 * pre-migrated PGlite folder, one PostgreSQL cluster, one Chromium, one console of each shared configuration. Outside
 * Vitest (scripts/screenshots.ts, scripts/bench-audit.mts) nothing is provided and each helper starts its own.
 */
import { appendFileSync } from "node:fs";
import type { SharedConsoleAddress, SharedConsoleProfile } from "./shared-consoles";

/** Enough to reach a running cluster: its superuser URL, port, socket folder and server binaries. */
export interface SharedPostgres {
  url: string;
  port: number;
  folder: string;
  bin: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder holding `pglite/`, an embedded database migrated to the current schema and closed. */
    pgliteTemplate: string;
    postgres: SharedPostgres;
    /** playwright's `BrowserServer.wsEndpoint()` of the run's one Chromium. */
    chromiumWsEndpoint: string;
    /** The run's consoles of each shared profile (test/setup/console.ts, test/support/shared-consoles.ts). */
    sharedConsoles: Record<SharedConsoleProfile, SharedConsoleAddress>;
  }
}

type Key = "pgliteTemplate" | "postgres" | "chromiumWsEndpoint" | "sharedConsoles";

type Inject = (key: Key) => unknown;

/** The value a global setup provided, or undefined (not under Vitest, or not set up for this project). */
export function provided<K extends Key>(key: K): import("vitest").ProvidedContext[K] | undefined {
  // Set by test/setup/inject.ts in every test file; absent in scripts and in Vitest's own process.
  const inject = (globalThis as Record<symbol, Inject | undefined>)[
    Symbol.for("card-services-console.tests.inject")
  ];
  if (!inject) return undefined;
  try {
    return (inject(key) as import("vitest").ProvidedContext[K] | undefined) ?? undefined;
  } catch {
    // Vitest's own process (a global setup) has no test worker to inject into.
    return undefined;
  }
}

/**
 * Appends one line naming what was started (console, chromium, initdb, …) to $TEST_START_LOG when set, so a
 * run can count the expensive things it started: `sort $TEST_START_LOG | uniq -c`.
 */
export function recordStart(kind: string): void {
  const file = process.env.TEST_START_LOG;
  if (file) appendFileSync(file, `${kind}\n`);
}
