/**
 * Runs in every test file before its tests (setupFiles): hands Vitest's `inject` to test/support/shared.ts, so
 * that the support helpers never import Vitest themselves and scripts outside Vitest (screenshots, benches) can
 * use them.
 */
import { inject } from "vitest";

(globalThis as Record<symbol, unknown>)[Symbol.for("card-services-console.tests.inject")] = inject;
