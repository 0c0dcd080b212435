import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// expect.poll waits for what a user would see; on a loaded 2-core machine a page can take seconds to show it.
const expectOptions = { poll: { timeout: 15_000, interval: 50 } };

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = {
  "@/": `${root}/`,
  // `server-only` throws outside a React Server Components bundle; under test it is a no-op.
  "server-only": `${root}/test/support/empty-module.ts`,
};

/**
 * What a run starts once and shares with every test file (test/setup/*, handed over with provide/inject): the
 * production build, a migrated PGlite template, one PostgreSQL cluster, one Chromium, one console of each shared
 * profile (test/support/shared-consoles.ts).
 */
const setup = {
  build: "test/setup/build.ts",
  pglite: "test/setup/pglite.ts",
  postgres: "test/setup/postgres.ts",
  chromium: "test/setup/chromium.ts",
  console: "test/setup/console.ts",
};
/** Hands Vitest's `inject` to the support helpers (test/support/shared.ts), which never import Vitest. */
const setupFile = "test/setup/inject.ts";
/**
 * Test files share their worker's modules (`isolate: false` in every project): importing the server's modules,
 * playwright-core and the support helpers once per worker rather than once per file saves most of what a file
 * cost before its first test. This setup file clears what one file leaves in the process before the next.
 */
const freshProcessFile = "test/setup/fresh-process.ts";
/** First of the setup files, so that its afterAll runs last: the CPU a file cost, when $TEST_CPU_LOG is set. */
const fileCpuFile = "test/setup/file-cpu.ts";

/**
 * Integration and browser files run this many at a time, in one pool. A file's own process waits on the
 * servers it started and on Chromium, whose work is on other processes, so on a 2-core machine 3 at once keep
 * both cores busy where Vitest's default (cores − 1) would run one file at a time. Both projects must say the same: Vitest runs projects of one
 * `sequence.groupOrder` in one pool. TEST_FILE_WORKERS overrides it (e.g. to measure, or on a bigger machine).
 */
const serverFileWorkers = Number(process.env.TEST_FILE_WORKERS) || 3;

/** What the projects against the production build start once per run (integration adds PostgreSQL). */
const serverSetup = [setup.build, setup.pglite, setup.chromium, setup.console];

/** A project of `test/<name>/` files run against the production build and the run's shared servers. */
function serverProject(name: string, globalSetup: string[], testTimeout: number) {
  return {
    resolve: { alias },
    test: {
      name,
      expect: expectOptions,
      include: [`test/${name}/**/*.test.ts`],
      environment: "node",
      globalSetup,
      setupFiles: [fileCpuFile, setupFile, freshProcessFile],
      isolate: false,
      maxWorkers: serverFileWorkers,
      testTimeout,
      hookTimeout: 180_000,
    },
  };
}

export default defineConfig({
  resolve: { alias },
  test: {
    // Only to catch hangs: tests never assert on speed.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.{ts,tsx}"],
          environment: "node",
          globalSetup: [setup.pglite],
          setupFiles: [fileCpuFile, setupFile, freshProcessFile],
          isolate: false,
          // Route tests open an embedded database (PGlite, copied from the run's template) on first use.
          testTimeout: 60_000,
        },
      },
      // Chromium too: a sign-in test drives the OpenID flow in a browser.
      serverProject(
        "integration",
        [setup.build, setup.pglite, setup.postgres, setup.chromium, setup.console],
        60_000,
      ),
      // The code the console hands out, run in its own languages (Python, Java, Go, PHP, Ruby, Node, curl): the
      // starter clients' suites and certification, the generated samples with hostile values, code copied from
      // the pages. `npm run test:languages`, the CI step after `npm test`.
      serverProject("languages", serverSetup, 90_000),
      // Proofs that take long on their own: 6,000 anonymous requests against one console (no series, memory or
      // latency grows), two standalone instances behind a balancer on one PostgreSQL, one killed mid-work, the
      // monitors' schedule kept in real time (each due run once on two consoles, a hanging receiver, a restart), a
      // console's memory from its first start, and a reference client through every fault family.
      // `npm run test:long`, the CI step after `npm test`.
      serverProject("long", [setup.build, setup.pglite, setup.postgres], 60_000),
      // Files share the one Chromium (a context each) and run beside the integration files.
      serverProject("browser", serverSetup, 90_000),
    ],
  },
});
